package io.lifeline.connector.inbound.torchelastic;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which Lifeline job a torchelastic run belongs to.
 *
 * @param job           the job, {@code namespace/name} (the subject of trainer events)
 * @param procsPerNode  worker processes per node ({@code --nproc-per-node}), when known; needed to turn a
 *                      rendezvous (which counts nodes) into ranks, and an agent failure into the ranks it hosted
 */
public record JobBinding(String job, Integer procsPerNode) {

    private static final Pattern JOB = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]*/[A-Za-z0-9][A-Za-z0-9._:@-]*");

    public JobBinding {
        Objects.requireNonNull(job, "job");
        if (job.length() > 253 || !JOB.matcher(job).matches()) {
            throw new IllegalArgumentException("job must be namespace/name, got '" + job + "'");
        }
        if (procsPerNode != null && procsPerNode < 1) {
            throw new IllegalArgumentException("procsPerNode must be >= 1, got " + procsPerNode);
        }
    }

    /** Whether a string is a valid job name. */
    public static boolean isValidJob(String job) {
        return job != null && job.length() <= 253 && JOB.matcher(job).matches();
    }
}
