package io.lifeline.domain.objective;

/** Where an objective stands in its window. */
public enum ObjectiveState {
    /** No job of its scope held GPUs in the window. */
    NO_DATA,
    /** Inside its budget and not burning it fast. */
    MET,
    /** A fast or slow burn-rate condition holds: at this pace the budget runs out before the window ends. */
    BURNING,
    /** The budget (or a loss limit) is spent. */
    EXHAUSTED;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
