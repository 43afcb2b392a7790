package io.lifeline.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.alert.store.AlertStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The outbox dispatcher against a real HTTP receiver, with the store replaced by a list. */
class AlertDispatcherTest {

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    private URI serve(int status) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            x.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            x.sendResponseHeaders(status, -1);
            x.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Settings with three attempts and 100 ms backoff doubling up to 250 ms; everything else at its default. */
    private static AlertsConfig config() {
        Object delivery = Proxy.newProxyInstance(
                AlertsConfig.class.getClassLoader(), new Class<?>[] {AlertsConfig.Delivery.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "maxAttempts":
                            return 3;
                        case "initialBackoff":
                            return Duration.ofMillis(100);
                        case "maxBackoff":
                            return Duration.ofMillis(250);
                        case "timeout":
                            return Duration.ofSeconds(2);
                        default:
                            return Duration.ofSeconds(1);
                    }
                });
        return (AlertsConfig) Proxy.newProxyInstance(
                AlertsConfig.class.getClassLoader(), new Class<?>[] {AlertsConfig.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "delivery":
                            return delivery;
                        case "receivers":
                            return List.of();
                        case "enabled":
                            return true;
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    /** One queued notification, and the attempts recorded for it. */
    private static final class Outbox {
        int attempts;
        String state = "pending";
        final List<String> outcomes = new ArrayList<>();
        final List<Integer> statuses = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        Instant next;
    }

    private static AlertStore store(Outbox box) {
        return new AlertStore(null, null) {
            @Override
            public List<Pending> due(Instant now, int limit) {
                if (!box.state.equals("pending")) {
                    return List.of();
                }
                return List.of(new Pending(
                        1,
                        "hook",
                        ReceiverKind.WEBHOOK,
                        "key-1",
                        "{}:{alertname=\"X\"}",
                        "{\"version\":\"4\"}".getBytes(StandardCharsets.UTF_8),
                        box.attempts));
            }

            @Override
            public void recordAttempt(
                    Long notificationId,
                    Receiver receiver,
                    int attempt,
                    Instant at,
                    DeliveryOutcome outcome,
                    Integer httpStatus,
                    long durationMillis,
                    String error,
                    Instant nextAttemptAt) {
                box.attempts = attempt;
                box.outcomes.add(outcome.wire());
                box.statuses.add(httpStatus);
                box.errors.add(error);
                box.next = nextAttemptAt;
                box.state = outcome == DeliveryOutcome.RETRY ? "pending" : outcome.wire();
            }
        };
    }

    private AlertDispatcher dispatcher(URI url, Outbox box, SimpleMeterRegistry registry) {
        AlertsConfig config = config();
        AlertReceivers receivers = new AlertReceivers(config);
        receivers.register(new Receiver("hook", ReceiverKind.WEBHOOK, url, "s"));
        return new AlertDispatcher(
                config, null, store(box), receivers, new DeliveryMetrics(registry), Clock.systemUTC());
    }

    @Test
    void aServerErrorIsRetriedUntilTheAttemptsRunOut() throws Exception {
        Outbox box = new Outbox();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AlertDispatcher d = dispatcher(serve(503), box, registry);
        for (int i = 0; i < 5; i++) {
            d.deliverDue();
        }
        assertThat(requests.get()).isEqualTo(3);
        assertThat(box.outcomes).containsExactly("retry", "retry", "failed");
        assertThat(box.statuses).containsExactly(503, 503, 503);
        assertThat(box.state).isEqualTo("failed");
        assertThat(registry.get("lifeline_webhook_deliveries")
                        .tags("receiver_kind", "webhook", "outcome", "retry")
                        .counter()
                        .count())
                .isEqualTo(2.0);
    }

    @Test
    void aClientErrorFailsAtOnce() throws Exception {
        Outbox box = new Outbox();
        AlertDispatcher d = dispatcher(serve(400), box, new SimpleMeterRegistry());
        d.deliverDue();
        d.deliverDue();
        assertThat(requests.get()).isEqualTo(1);
        assertThat(box.outcomes).containsExactly("failed");
    }

    @Test
    void anUnreachableReceiverIsRetriedAndTheErrorDoesNotNameItsAddress() throws Exception {
        Outbox box = new Outbox();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AlertDispatcher d =
                dispatcher(URI.create("http://127.0.0.1:" + port + "/secret-path"), box, new SimpleMeterRegistry());
        d.deliverDue();
        assertThat(box.outcomes).containsExactly("retry");
        assertThat(box.statuses).containsExactly((Integer) null);
        assertThat(box.errors)
                .singleElement()
                .asString()
                .startsWith("connection failed")
                .doesNotContain("secret-path")
                .doesNotContain(Integer.toString(port));
        assertThat(box.next).isAfter(Instant.now().minusSeconds(1));
    }

    @Test
    void backoffDoublesUpToTheMaximum() {
        AlertDispatcher d = new AlertDispatcher(
                config(),
                null,
                store(new Outbox()),
                new AlertReceivers(config()),
                new DeliveryMetrics(new SimpleMeterRegistry()),
                Clock.systemUTC());
        assertThat(d.backoff(1)).isBetween(Duration.ofMillis(90), Duration.ofMillis(100));
        assertThat(d.backoff(2)).isBetween(Duration.ofMillis(180), Duration.ofMillis(200));
        assertThat(d.backoff(3)).isBetween(Duration.ofMillis(225), Duration.ofMillis(250));
        assertThat(d.backoff(40)).isBetween(Duration.ofMillis(225), Duration.ofMillis(250));
    }

    @Test
    void aReceiversRetryAfterIsHonouredUpToTheMaximum() {
        AlertDispatcher d = new AlertDispatcher(
                config(),
                null,
                store(new Outbox()),
                new AlertReceivers(config()),
                new DeliveryMetrics(new SimpleMeterRegistry()),
                Clock.systemUTC());
        assertThat(d.backoff(1, Duration.ofMillis(200))).isEqualTo(Duration.ofMillis(200));
        assertThat(d.backoff(1, Duration.ofMinutes(10))).isEqualTo(Duration.ofMillis(250));
        assertThat(d.backoff(2, Duration.ofMillis(1))).isBetween(Duration.ofMillis(180), Duration.ofMillis(200));
    }
}
