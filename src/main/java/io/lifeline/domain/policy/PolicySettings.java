package io.lifeline.domain.policy;

import java.util.EnumMap;
import java.util.Map;

/**
 * Every policy's mode, with per-scope overrides ({@code namespace:<ns>}, {@code pool:<pool>}). Immutable: a change
 * makes a new one, swapped in whole, so the event path reads it without locks.
 */
public final class PolicySettings {

    /** One policy's default mode and overrides. */
    public record Entry(PolicyMode mode, Map<String, PolicyMode> overrides) {
        public Entry {
            overrides = Map.copyOf(overrides);
        }
    }

    private final Map<PolicyName, Entry> entries;

    public PolicySettings(Map<PolicyName, Entry> entries) {
        this.entries = new EnumMap<>(PolicyName.class);
        for (PolicyName p : PolicyName.values()) {
            this.entries.put(p, entries.getOrDefault(p, new Entry(PolicyMode.OFF, Map.of())));
        }
    }

    /** Every policy off. */
    public static PolicySettings allOff() {
        return new PolicySettings(Map.of());
    }

    public Entry entry(PolicyName p) {
        return entries.get(p);
    }

    /** The mode that applies: a namespace override, else a pool override, else the default. */
    public PolicyMode modeFor(PolicyName p, String namespace, String pool) {
        Entry e = entries.get(p);
        if (namespace != null) {
            PolicyMode m = e.overrides().get("namespace:" + namespace);
            if (m != null) {
                return m;
            }
        }
        if (pool != null) {
            PolicyMode m = e.overrides().get("pool:" + pool);
            if (m != null) {
                return m;
            }
        }
        return e.mode();
    }

    /** A copy with one policy replaced. */
    public PolicySettings with(PolicyName p, Entry entry) {
        Map<PolicyName, Entry> copy = new EnumMap<>(entries);
        copy.put(p, entry);
        return new PolicySettings(copy);
    }
}
