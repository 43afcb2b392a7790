package io.lifeline.domain.job.checkpoint;

import java.util.Arrays;

/**
 * The recent finite losses one job reported (at most {@value #WINDOW}, the newest), and the verdict on a loss against
 * them: the same rules as the trainer agent's, so that Lifeline and the agent call the same saves suspect.
 *
 * <ul>
 *   <li>a non-finite loss (NaN, an infinity) is {@link SuspectReason#NON_FINITE_LOSS};
 *   <li>a loss above {@code factor} times the median of the window, once it holds at least {@value #MIN_LOSSES} losses
 *       and their median is above zero, is {@link SuspectReason#LOSS_SPIKE} (a loss that may be negative, a
 *       log-likelihood, is never judged a spike);
 *   <li>anything else, and no loss at all, is no reason.
 * </ul>
 *
 * Bounded memory: one array of {@value #WINDOW} doubles per job, filled only by jobs that report a loss.
 */
public final class LossWindow {

    /** Losses kept for the median. */
    public static final int WINDOW = 50;
    /** Finite losses the window must hold before a spike is judged. */
    public static final int MIN_LOSSES = 5;

    private final double[] ring = new double[WINDOW];
    private int size;
    private int next;

    /** A reported loss; only finite ones enter the window (a NaN says nothing about the scale). Null: ignored. */
    public void add(Double loss) {
        if (loss == null || !Double.isFinite(loss)) {
            return;
        }
        ring[next] = loss;
        next = (next + 1) % WINDOW;
        size = Math.min(size + 1, WINDOW);
    }

    /** Losses in the window. */
    public int size() {
        return size;
    }

    /** The median of the window, or NaN when it is empty. */
    public double median() {
        if (size == 0) {
            return Double.NaN;
        }
        double[] s = Arrays.copyOf(ring, size);
        Arrays.sort(s);
        return size % 2 == 1 ? s[size / 2] : (s[size / 2 - 1] + s[size / 2]) / 2.0;
    }

    /** Why a checkpoint saved at {@code loss} is suspect, or null (also when {@code loss} is null). */
    public Verdict judge(Double loss, double factor) {
        if (loss == null) {
            return null;
        }
        if (!Double.isFinite(loss)) {
            return new Verdict(SuspectReason.NON_FINITE_LOSS, "saved after a non-finite loss (" + loss + ")");
        }
        if (size < MIN_LOSSES) {
            return null;
        }
        double m = median();
        if (m > 0 && loss > factor * m) {
            return new Verdict(
                    SuspectReason.LOSS_SPIKE,
                    "saved after a loss spike: " + loss + ", more than " + factor + " × the median " + m
                            + " of the last " + size + " losses reported");
        }
        return null;
    }

    /** A reason with what it rests on, in words. */
    public record Verdict(SuspectReason reason, String detail) {}
}
