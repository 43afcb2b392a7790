package io.lifeline.testing;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/** Builds CloudEvents JSON for tests, as a sender would write it. */
public final class CloudEvents {

    private CloudEvents() {}

    public static String event(String id, String source, String type, String subject, Instant time, String dataJson) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"" + source + "\",\"type\":\"" + type
                + "\",\"subject\":\"" + subject + "\",\"time\":\"" + time
                + "\",\"datacontenttype\":\"application/json\","
                + "\"data\":" + dataJson + "}";
    }

    /** A valid node.registered event for {@code node}. */
    public static String nodeRegistered(String id, String node, Instant time) {
        return event(
                id,
                "test/k8s",
                "node.registered",
                node,
                time,
                "{\"pool\":\"spot-a\",\"capacityType\":\"spot\",\"zone\":\"us-east-1a\",\"instanceType\":\"p4d.24xlarge\","
                        + "\"gpuCount\":8}");
    }

    /** A valid gpu.sample event (telemetry). */
    public static String gpuSample(String id, String node, Instant time, double util) {
        return event(
                id,
                "test/dcgm",
                "gpu.sample",
                node,
                time,
                "{\"uuid\":\"GPU-" + node + "-0\",\"index\":0,\"utilizationPercent\":" + util + "}");
    }

    public static String uniqueId() {
        return UUID.randomUUID().toString();
    }

    public static String array(List<String> events) {
        return events.stream().collect(Collectors.joining(",", "[", "]"));
    }
}
