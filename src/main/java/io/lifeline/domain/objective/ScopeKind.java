package io.lifeline.domain.objective;

import java.util.Locale;
import java.util.Optional;

/** What an objective's scope names: one job, a namespace (a team), an owner label or a node pool. */
public enum ScopeKind {
    JOB,
    NAMESPACE,
    OWNER,
    POOL;

    /** The name on the wire and in configuration, e.g. {@code namespace}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind named {@code s} (case-insensitive), or empty. */
    public static Optional<ScopeKind> fromWire(String s) {
        for (ScopeKind k : values()) {
            if (k.wire().equalsIgnoreCase(s == null ? "" : s.trim())) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
