package io.lifeline.connector.inbound.torchft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.Fixtures;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * TorchFT's Lighthouse status page (rendered from its {@code templates/status.html}) read as a quorum, and each quorum
 * with other replica groups shown once as the job's membership.
 */
class LighthouseStatusTest {

    private static final String A = "train_ddp_0:9c1d6b2e-3f0a-4d7e-8a51-2b6f0c9e7d13";
    private static final String B = "train_ddp_1:4e8f2a71-6c3b-4b09-9d2e-7a1c5f3b8e60";
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
    private static final Map<String, String> NODES =
            Map.of("llm-ft-replica-0-0", "gpu-node-a", "llm-ft-replica-1-0", "gpu-node-b");

    private static String page(String name) {
        return Fixtures.text("torchft/" + name);
    }

    @Test
    void theStatusPageGivesTheLastQuorumAndItsReplicaGroups() {
        LighthouseStatus s = LighthouseStatus.parse(page("lighthouse_status_two_replicas_derived.html"));
        assertThat(s.quorumId()).isEqualTo(7);
        assertThat(s.status()).startsWith("Fast quorum found! [2/2 participants healthy]");
        assertThat(s.quorum().id()).isEqualTo(7);
        assertThat(s.quorum().members())
                .containsExactly(
                        new LighthouseStatus.Member(
                                A, 1200, "http://llm-ft-replica-0-0:29512", "llm-ft-replica-0-0:29500", 8),
                        new LighthouseStatus.Member(
                                B, 1200, "http://llm-ft-replica-1-0:29512", "llm-ft-replica-1-0:29500", 8));
        assertThat(s.quorum().members().get(1).host()).isEqualTo("llm-ft-replica-1-0");

        LighthouseStatus none = LighthouseStatus.parse(page("lighthouse_status_no_quorum_derived.html"));
        assertThat(none.quorumId()).isZero();
        assertThat(none.quorum()).isNull();
        assertThatThrownBy(() -> LighthouseStatus.parse("<html>Lighthouse Dashboard - torchft</html>"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void escapedAddressesReadAsAddresses() {
        assertThat(LighthouseStatus.unescape("http:&#x2f;&#x2f;h:29512")).isEqualTo("http://h:29512");
        assertThat(LighthouseStatus.unescape("a&amp;b &lt;c&gt;")).isEqualTo("a&b <c>");
    }

    @Test
    void aQuorumChangeIsShownOnceAsTheJobsMembership() {
        LighthouseStatus two = LighthouseStatus.parse(page("lighthouse_status_two_replicas_derived.html"));
        Event e = QuorumMembership.rendezvous("ml/llm-ft", two, null, NODES::get, NOW);
        assertThat(e.type()).isEqualTo(EventType.TRAINER_RENDEZVOUS);
        assertThat(e.subject()).isEqualTo("ml/llm-ft");
        assertThat(e.data())
                .isEqualTo(new TrainerData.Rendezvous(
                        "torchft",
                        7,
                        16,
                        List.of(
                                new TrainerData.Participant("gpu-node-a", 0, 8),
                                new TrainerData.Participant("gpu-node-b", 8, 8))));
        // The same replica groups again (a later quorum id after a commit failure): no membership change.
        assertThat(QuorumMembership.rendezvous("ml/llm-ft", two, List.of(A, B), NODES::get, NOW))
                .isNull();

        LighthouseStatus one = LighthouseStatus.parse(page("lighthouse_status_one_replica_dropped_derived.html"));
        Event shrunk = QuorumMembership.rendezvous("ml/llm-ft", one, List.of(A, B), NODES::get, NOW);
        assertThat(shrunk.data())
                .isEqualTo(new TrainerData.Rendezvous(
                        "torchft", 8, 8, List.of(new TrainerData.Participant("gpu-node-a", 0, 8))));
        assertThat(shrunk.id()).isNotEqualTo(e.id());
        // Outside Kubernetes a replica's hostname is its machine's.
        assertThat(((TrainerData.Rendezvous) QuorumMembership.rendezvous("ml/llm-ft", one, null, h -> null, NOW)
                                .data())
                        .participants())
                .containsExactly(new TrainerData.Participant("llm-ft-replica-0-0", 0, 8));
    }

    @Test
    void thePollerReadsEachLighthouseAndShowsOnlyChangedQuorums() throws Exception {
        AtomicReference<String> served = new AtomicReference<>(page("lighthouse_status_two_replicas_derived.html"));
        HttpServer lighthouse = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        lighthouse.createContext("/status", x -> {
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        lighthouse.start();
        try {
            ReplicaNodes noCluster = (ns, host) -> null;
            TorchFtConfig config = new TorchFtConfig() {
                @Override
                public boolean enabled() {
                    return true;
                }

                @Override
                public Duration interval() {
                    return Duration.ofSeconds(10);
                }

                @Override
                public Duration timeout() {
                    return Duration.ofSeconds(5);
                }
            };
            LighthousePoller poller =
                    new LighthousePoller(config, noCluster, null, null, null, Clock.fixed(NOW, ZoneOffset.UTC));
            poller.watch(
                    "ml/llm-ft", "http://127.0.0.1:" + lighthouse.getAddress().getPort() + "/");
            poller.watch("ml/gone", "http://127.0.0.1:1");

            List<Event> first = poller.changes();
            assertThat(first).singleElement().satisfies(e -> {
                assertThat(e.subject()).isEqualTo("ml/llm-ft");
                assertThat(((TrainerData.Rendezvous) e.data()).round()).isEqualTo(7);
            });
            assertThat(poller.changes()).isEmpty();
            served.set(page("lighthouse_status_one_replica_dropped_derived.html"));
            assertThat(poller.changes())
                    .singleElement()
                    .satisfies(e -> assertThat(((TrainerData.Rendezvous) e.data()).worldSize())
                            .isEqualTo(8));
        } finally {
            lighthouse.stop(0);
        }
    }
}
