package io.lifeline.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A job of a namespace of its own on one 8-GPU node of a pool of its own, as CloudEvents: a worker fails twice and the
 * job recovers each time. The seconds of each phase, from the events' times (T = {@code t}):
 *
 * <pre>
 *              stop     restarted   group formed   first progress   detection  rendezvous  restore
 *   first    T+400 s    T+430 s      T+440 s        T+500 s            30 s       10 s       60 s
 *   second   T+1100 s   T+1190 s     T+1220 s       T+1240 s           90 s       30 s       20 s
 * </pre>
 *
 * Nearest rank over two values: the median is the smaller (rank ⌈1⌉ = 1), the 90th percentile the larger (rank
 * ⌈1.8⌉ = 2). Detection: 30 and 90 s, Σ 120 s, × 8 GPUs = 960 GPU-s.
 *
 * @param namespace  the job's namespace
 * @param job        the job ({@code namespace/train})
 * @param node       its node
 * @param pool       the node's pool
 */
public record TwiceRecoveredJob(String namespace, String job, String node, String pool) {

    /** Names made unique by {@code tag}. */
    public static TwiceRecoveredJob tagged(String tag) {
        String ns = "phases-" + tag;
        return new TwiceRecoveredJob(ns, ns + "/train", "phases-node-" + tag, "phases-pool-" + tag);
    }

    /** The events, from {@code t} on. */
    public List<String> events(Instant t) {
        List<String> events = new ArrayList<>();
        events.add(event(
                "test/k8s",
                "node.registered",
                node,
                t,
                "{\"pool\":\"" + pool + "\",\"capacityType\":\"on-demand\",\"zone\":\"eu-west-4c\","
                        + "\"instanceType\":\"a3-highgpu-8g\",\"gpuCount\":8}"));
        events.add(event(
                "test/k8s",
                "job.submitted",
                job,
                t,
                "{\"namespace\":\"" + namespace + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":8,"
                        + "\"maxRestarts\":10},\"gpusPerNode\":8}"));
        events.add(rendezvous(t.plusSeconds(10), 1));
        events.add(progress(t.plusSeconds(20), 10));
        events.add(progress(t.plusSeconds(300), 300));
        failAndRecover(events, t.plusSeconds(400), 30, 10, 60, 2, 310);
        events.add(progress(t.plusSeconds(1000), 900));
        failAndRecover(events, t.plusSeconds(1100), 90, 30, 20, 3, 910);
        return events;
    }

    /** Posts the events, from {@code t} on, as the admin. */
    public void post(Instant t) {
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events(t)))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    private static String event(String source, String type, String subject, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), source, type, subject, t, data);
    }

    private String rendezvous(Instant t, int round) {
        return event(
                "test/trainer",
                "trainer.rendezvous",
                job,
                t,
                "{\"runId\":\"run\",\"round\":" + round + ",\"worldSize\":8,\"participants\":[{\"node\":\"" + node
                        + "\",\"firstRank\":0,\"rankCount\":8}]}");
    }

    private String progress(Instant t, long step) {
        return event("test/trainer", "trainer.progress", job, t, "{\"step\":" + step + ",\"samplesPerSecond\":100.0}");
    }

    private void failAndRecover(
            List<String> events, Instant stop, int detect, int rendezvous, int restore, int round, long step) {
        events.add(event(
                "test/trainer",
                "trainer.worker_failed",
                job,
                stop,
                "{\"runId\":\"run\",\"rank\":0,\"node\":\"" + node + "\",\"exitCode\":1}"));
        Instant restarted = stop.plusSeconds(detect);
        events.add(event(
                "test/trainer",
                "trainer.restarted",
                job,
                restarted,
                "{\"runId\":\"run\",\"restartCount\":" + (round - 1) + "}"));
        Instant formed = restarted.plusSeconds(rendezvous);
        events.add(rendezvous(formed, round));
        events.add(progress(formed.plusSeconds(restore), step));
    }
}
