package io.lifeline.domain.job.goodput;

/**
 * A reading of a job's cumulative productive time, taken when a checkpoint captures the training state.
 * The progress made after the mark is what an interruption throws away when the job restarts from that
 * checkpoint: {@code productive now − mark}.
 *
 * @param millis     cumulative productive milliseconds
 * @param gpuMillis  cumulative productive GPU-milliseconds (milliseconds × GPUs held)
 */
public record ProductiveMark(long millis, long gpuMillis) {

    /** The mark of a run that has saved nothing: restarting from it throws away all progress. */
    public static final ProductiveMark ZERO = new ProductiveMark(0, 0);

    /** The later of two marks (the one protecting more work). */
    public ProductiveMark max(ProductiveMark other) {
        return other == null || millis >= other.millis ? this : other;
    }
}
