package io.lifeline.testing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A realistic ingest mix for load runs: 90% {@code gpu.sample} telemetry over 2,000 nodes of 8 GPUs and 10%
 * lifecycle events (cordons, checkpoints, progress-free trainer events) over 500 jobs, each with a unique id.
 */
public final class MixedEventStream {

    private final String prefix;
    private final Instant base = Instant.now().minusSeconds(3600);
    private long n;

    public MixedEventStream(String prefix) {
        this.prefix = prefix;
    }

    /** One encoded event and its Kafka key (the subject). */
    public record Encoded(byte[] key, byte[] json) {}

    public Encoded next() {
        long i = n++;
        String id = prefix + "-" + i;
        String time = base.plusMillis(i).toString();
        String subject;
        String json;
        if (i % 10 != 9) {
            int gpu = (int) (i % 16_000);
            subject = "node-" + gpu / 8;
            json = "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"bench/dcgm\",\"type\":\"gpu.sample\","
                    + "\"subject\":\"" + subject + "\",\"time\":\"" + time + "\",\"data\":{\"uuid\":\"GPU-" + gpu
                    + "\",\"index\":" + gpu % 8 + ",\"utilizationPercent\":" + (i % 100) + ",\"memoryUsedMiB\":40960,"
                    + "\"temperatureCelsius\":" + (40 + i % 40) + ",\"powerWatts\":350.5}}";
        } else if (i % 20 == 9) {
            subject = "node-" + (i / 10) % 2000;
            json = "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"bench/k8s\",\"type\":\"node.cordoned\","
                    + "\"subject\":\"" + subject + "\",\"time\":\"" + time + "\",\"data\":{\"by\":\"bench\"}}";
        } else {
            subject = "team-" + (i % 7) + "/job-" + (i / 20) % 500;
            json = "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"bench/trainer\","
                    + "\"type\":\"trainer.checkpoint.completed\",\"subject\":\"" + subject + "\",\"time\":\"" + time
                    + "\",\"data\":{\"checkpointId\":\"ck-" + i + "\",\"step\":" + i + ",\"durationSeconds\":31.5,"
                    + "\"blockingSeconds\":12.0,\"uri\":\"s3://ckpt/" + i + "\"}}";
        }
        return new Encoded(subject.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
    }
}
