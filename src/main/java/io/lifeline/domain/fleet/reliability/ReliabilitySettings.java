package io.lifeline.domain.fleet.reliability;

/**
 * How fleet reliability is judged.
 *
 * @param confidence               of the rate and MTBF intervals (default 0.95)
 * @param lemonTailProbability     a node is a lemon when at least this few of its pool's nodes would be interrupted
 *                                 as often by chance: P(X ≥ k) below this under its pool's rate (default 0.001)
 * @param lemonMinInterruptions    and it was interrupted at least this often in the window (default 3)
 * @param adviceWindowDays         the window whose per-pool rate feeds the checkpoint-interval advice (default 30)
 */
public record ReliabilitySettings(
        double confidence, double lemonTailProbability, int lemonMinInterruptions, int adviceWindowDays) {

    /** The longest window kept, in days. */
    public static final int MAX_WINDOW_DAYS = 90;

    public ReliabilitySettings {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be within (0, 1), got " + confidence);
        }
        if (!(lemonTailProbability > 0 && lemonTailProbability < 1)) {
            throw new IllegalArgumentException(
                    "lemon tail probability must be within (0, 1), got " + lemonTailProbability);
        }
        if (lemonMinInterruptions < 1) {
            throw new IllegalArgumentException(
                    "lemon minimum interruptions must be >= 1, got " + lemonMinInterruptions);
        }
        if (adviceWindowDays < 1 || adviceWindowDays > MAX_WINDOW_DAYS) {
            throw new IllegalArgumentException(
                    "advice window must be 1.." + MAX_WINDOW_DAYS + " days, got " + adviceWindowDays);
        }
    }

    public static ReliabilitySettings defaults() {
        return new ReliabilitySettings(0.95, 0.001, 3, 30);
    }
}
