package io.lifeline.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Feeds one small scenario through {@code POST /api/v1/events}, so that the job and fleet series exist: two spot
 * nodes, an elastic job on both with progress and a completed checkpoint, a fatal XID on one node (a failed GPU,
 * an incident) and a spot notice on the other (a lemon score).
 */
final class OpsEvents {

    private OpsEvents() {}

    /** Sends the scenario for a job called {@code namespace/name}; returns the job name. */
    static String feed(String namespace, String name) {
        String job = namespace + "/" + name;
        String n1 = name + "-node-a";
        String n2 = name + "-node-b";
        Instant t0 = Instant.now().minusSeconds(600);
        List<String> events = new ArrayList<>();
        events.add(CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n1, t0));
        events.add(CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n2, t0));
        events.add(
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/scheduler",
                        "job.submitted",
                        job,
                        t0.plusSeconds(10),
                        "{\"namespace\":\"" + namespace
                                + "\",\"owner\":\"ops\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,"
                                + "\"procsPerNode\":8,\"maxRestarts\":10},\"gpusPerNode\":8,\"checkpointIntervalSeconds\":1800}"));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/trainer",
                "trainer.rendezvous",
                job,
                t0.plusSeconds(30),
                "{\"runId\":\"run-1\",\"round\":1,\"worldSize\":16,\"participants\":["
                        + "{\"node\":\"" + n1 + "\",\"firstRank\":0,\"rankCount\":8},"
                        + "{\"node\":\"" + n2 + "\",\"firstRank\":8,\"rankCount\":8}]}"));
        events.add(progress(job, t0.plusSeconds(60), 100));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/trainer",
                "trainer.checkpoint.completed",
                job,
                t0.plusSeconds(120),
                "{\"checkpointId\":\"step-200\",\"step\":200,\"durationSeconds\":10.0," + "\"blockingSeconds\":2.0}"));
        events.add(progress(job, t0.plusSeconds(300), 900));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/dcgm",
                "gpu.xid",
                n2,
                t0.plusSeconds(400),
                "{\"uuid\":\"GPU-" + n2 + "-3\",\"index\":3,\"xid\":79,\"message\":\"GPU has fallen off the bus\"}"));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "aws/eventbridge/us-east-1",
                "node.interruption_notice",
                n1,
                t0.plusSeconds(500),
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\",\"deadline\":\"" + t0.plusSeconds(620) + "\"}"));
        int status = TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .statusCode();
        assertThat(status).as("events accepted").isBetween(200, 299);
        return job;
    }

    private static String progress(String job, Instant at, long step) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/trainer",
                "trainer.progress",
                job,
                at,
                "{\"step\":" + step + ",\"samplesPerSecond\":100.0}");
    }
}
