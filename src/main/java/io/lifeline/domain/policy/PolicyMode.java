package io.lifeline.domain.policy;

/** How a policy acts: not at all, by requesting dry runs only (visible, audited, nothing done), or for real. */
public enum PolicyMode {
    OFF,
    DRY_RUN,
    ON;

    public String wire() {
        return this == DRY_RUN ? "dry-run" : name().toLowerCase(java.util.Locale.ROOT);
    }

    public static java.util.Optional<PolicyMode> fromWire(String s) {
        for (PolicyMode m : values()) {
            if (m.wire().equals(s)) {
                return java.util.Optional.of(m);
            }
        }
        return java.util.Optional.empty();
    }
}
