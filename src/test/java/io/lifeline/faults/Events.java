package io.lifeline.faults;

import java.time.Instant;

/** Structured-mode CloudEvents the load generator sends, as JSON text (no mapper in the hot loop). */
final class Events {

    static final String FLEET_SOURCE = "k8s/faults";

    private Events() {}

    static String envelope(String id, String source, String type, String subject, Instant time, String data) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"" + source + "\",\"type\":\"" + type
                + "\",\"subject\":\"" + subject + "\",\"time\":\"" + time + "\",\"data\":" + data + "}";
    }

    static String nodeRegistered(String id, String node, String pool, Instant time) {
        return envelope(
                id,
                FLEET_SOURCE,
                "node.registered",
                node,
                time,
                "{\"pool\":\"" + pool
                        + "\",\"capacityType\":\"spot\",\"zone\":\"faults-1a\",\"instanceType\":\"g6.48xlarge\",\"gpuCount\":8}");
    }

    static String gpuSample(String id, String node, int index, double utilization, Instant time) {
        return envelope(
                id,
                "dcgm/" + node,
                "gpu.sample",
                node,
                time,
                "{\"uuid\":\"GPU-" + node + "-" + index
                        + "\",\"index\":" + index + ",\"model\":\"NVIDIA L4\",\"utilizationPercent\":" + utilization
                        + ",\"memoryUsedMiB\":20480.0,\"temperatureCelsius\":65.0,\"powerWatts\":70.5,\"eccSbeVolatile\":0,"
                        + "\"eccDbeVolatile\":0,\"rowRemapFailures\":0,\"nvlinkErrors\":0,\"lastXid\":0}");
    }

    static String jobSubmitted(String id, String job, Instant time) {
        String ns = job.substring(0, job.indexOf('/'));
        return envelope(
                id,
                FLEET_SOURCE,
                "job.submitted",
                job,
                time,
                "{\"namespace\":\"" + ns
                        + "\",\"owner\":\"faults\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,"
                        + "\"maxRestarts\":100},\"gpusPerNode\":8,\"checkpointIntervalSeconds\":600}");
    }

    static String rendezvous(String id, String job, String node, int round, Instant time) {
        return envelope(
                id,
                "trainer/" + job,
                "trainer.rendezvous",
                job,
                time,
                "{\"round\":" + round + ",\"worldSize\":8,\"participants\":[{\"node\":\"" + node
                        + "\",\"firstRank\":0,\"rankCount\":8}]}");
    }

    static String progress(String id, String job, long step, Instant time) {
        return envelope(
                id,
                "trainer/" + job,
                "trainer.progress",
                job,
                time,
                "{\"step\":" + step + ",\"samplesPerSecond\":410.5}");
    }

    static String checkpointCompleted(String id, String job, String checkpointId, long step, Instant time) {
        return envelope(
                id,
                "trainer/" + job,
                "trainer.checkpoint.completed",
                job,
                time,
                "{\"checkpointId\":\""
                        + checkpointId + "\",\"step\":" + step + ",\"bytes\":1048576,\"durationSeconds\":2.5,"
                        + "\"blockingSeconds\":0.5,\"async\":false,\"worldSize\":8}");
    }
}
