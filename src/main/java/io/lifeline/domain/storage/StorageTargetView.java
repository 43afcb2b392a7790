package io.lifeline.domain.storage;

import java.time.Instant;
import java.util.List;

/**
 * One storage target as its jobs' saves show it, counting only the jobs the reader may see.
 *
 * @param target                 the storage root ({@link StorageRoot})
 * @param namespaces             the namespaces of the jobs counted, sorted
 * @param jobs                   jobs counted
 * @param writingJobs            of those, the jobs still writing here
 * @param keptBytes              bytes of the checkpoints kept, the newest {@code retention} of each job
 * @param keptCheckpoints        those checkpoints
 * @param bandwidthMedian        median write bandwidth of the recent saves (bytes / save seconds), bytes/s, or null
 * @param bandwidthP10           10th percentile of the same (the slow saves), bytes/s, or null
 * @param bandwidthSamples       saves the two are taken from
 * @param freeBytes              free space now: the newest reading of the jobs, less what they kept since, or null
 * @param capacityBytes          the storage's size as last read, or null
 * @param freeReportedAt         when the free space was read, or null
 * @param netBytesPerHour        bytes the writing jobs add per hour, net of retention
 * @param secondsUntilFull       free space / that rate, or null when either is unknown or nothing is added
 * @param largestRecentBytes     the largest recent checkpoint written here
 * @param lastWriteAt            the newest save, or null
 * @param writers                the jobs, by name
 */
public record StorageTargetView(
        String target,
        List<String> namespaces,
        int jobs,
        int writingJobs,
        long keptBytes,
        int keptCheckpoints,
        Double bandwidthMedian,
        Double bandwidthP10,
        int bandwidthSamples,
        Long freeBytes,
        Long capacityBytes,
        Instant freeReportedAt,
        double netBytesPerHour,
        Double secondsUntilFull,
        long largestRecentBytes,
        Instant lastWriteAt,
        List<Writer> writers) {

    public StorageTargetView {
        namespaces = List.copyOf(namespaces);
        writers = List.copyOf(writers);
    }

    /**
     * One job writing to the target.
     *
     * @param job                 job name
     * @param namespace           its namespace
     * @param keptBytes           bytes of its checkpoints kept here
     * @param keptCheckpoints     how many
     * @param bytesPerCheckpoint  median size of its recent checkpoints, or null
     * @param intervalSeconds     median time between its recent saves, or null
     * @param bandwidthMedian     median write bandwidth of its recent saves, bytes/s, or null
     * @param netBytesPerHour     bytes it adds per hour net of retention, or null when not known or no longer writing
     * @param writing             whether it still writes here
     * @param lastSaveAt          its newest save here, or null
     */
    public record Writer(
            String job,
            String namespace,
            long keptBytes,
            int keptCheckpoints,
            Double bytesPerCheckpoint,
            Double intervalSeconds,
            Double bandwidthMedian,
            Double netBytesPerHour,
            boolean writing,
            Instant lastSaveAt) {}
}
