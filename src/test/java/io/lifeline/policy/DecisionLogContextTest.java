package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.platform.LogContext;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.LogLines;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The notice policy's decision about a node, in the running application: its lines (the request, or the brake's hold)
 * carry the node in the log context, with the action once there is one, and the log (the test profile writes it to
 * {@code target/test-security/lifeline.log} in the console's format) prints them before the message.
 */
@QuarkusTest
class DecisionLogContextTest {

    private static final Path LOG = Path.of("target/test-security/lifeline.log");
    private static final Caller TEST = Caller.unrestricted("decision-log-context-test");

    @Inject
    IngestGateway gateway;

    @Inject
    ModelRuntime runtime;

    @Inject
    DefaultPolicyService policies;

    @Test
    void aNoticeDecisionLogsWithItsNodeAndTheLogPrintsIt() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String pool = "log-context-" + run;
        List<Event> fleet = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            fleet.add(new Event(
                    UUID.randomUUID().toString(),
                    "test/k8s",
                    EventType.NODE_REGISTERED,
                    pool + "-" + i,
                    Instant.now(),
                    new NodeData.Registered(pool, CapacityType.SPOT, "z1", "p5.48xlarge", 8, null)));
        }
        gateway.submit(fleet).toCompletableFuture().get(30, TimeUnit.SECONDS);
        runtime.barrier().get(30, TimeUnit.SECONDS);
        String node = pool + "-3";

        PolicyView before = policies.get(PolicyName.NOTICE_CHECKPOINT_DRAIN);
        Map<String, PolicyMode> overrides = new HashMap<>(before.overrides());
        overrides.put("pool:" + pool, PolicyMode.ON);
        policies.update(PolicyName.NOTICE_CHECKPOINT_DRAIN, before.mode(), overrides, TEST);
        List<LogLines.Line> lines;
        try (LogLines log = LogLines.capture(PolicyRunner.class.getName())) {
            gateway.submit(List.of(new Event(
                            "notice-" + run,
                            "test/cloud",
                            EventType.NODE_INTERRUPTION_NOTICE,
                            node,
                            Instant.now(),
                            new NodeData.InterruptionNotice(
                                    NoticeKind.SPOT_RECLAIM,
                                    "aws",
                                    Instant.now().plusSeconds(120)))))
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            // Requested, or held when the automation brake is engaged: either is the decision's line.
            lines = await().atMost(Duration.ofSeconds(30))
                    .until(() -> log.about("drain of " + node), l -> !l.isEmpty());
        } finally {
            policies.update(PolicyName.NOTICE_CHECKPOINT_DRAIN, before.mode(), before.overrides(), TEST);
        }

        assertThat(lines).allSatisfy(l -> {
            assertThat(l.message()).startsWith("policy:notice-checkpoint-drain");
            assertThat(l.get(LogContext.NODE)).as(l.message()).isEqualTo(node);
            assertThat(l.get(LogContext.JOB)).isNull();
        });
        assertThat(lines)
                .filteredOn(l -> l.message().contains(" requested drain of " + node))
                .allSatisfy(l -> assertThat(l.message()).contains("(" + l.get(LogContext.ACTION) + ")"));

        // As printed: the context between the thread and the message.
        List<String> printed = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> Files.readAllLines(LOG, StandardCharsets.UTF_8).stream()
                                .filter(l -> l.contains("PolicyRunner") && l.contains("drain of " + node))
                                .toList(),
                        l -> !l.isEmpty());
        assertThat(printed)
                .allSatisfy(l -> assertThat(l)
                        .matches(".* \\[io\\.li\\.po\\.PolicyRunner] \\([^)]+\\) \\{node=" + Pattern.quote(node)
                                + "(, action=act-[0-9a-f]+)?} policy:notice-checkpoint-drain.*"));
    }
}
