package io.lifeline.domain.gpu;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The versioned XID policy: for every XID code, NVIDIA's facts about it and what Lifeline does about it.
 * Built from data tables (see {@link XidPolicyLoader} and {@code src/main/resources/xid/README.md}), never from
 * code branches, so changing the policy means changing a table and its version.
 *
 * <p>An XID no table knows gets the policy's default decision (in the shipped table: {@link XidAction#NONE}
 * and {@link GpuHealth#DEGRADED}, so an unknown error flags the GPU for a look without taking it out).
 * Immutable and thread-safe.
 */
public final class XidPolicy {

    private final String version;
    private final Map<Integer, XidRule> rules;
    private final XidDecision fallback;

    XidPolicy(String version, Map<Integer, XidRule> rules, XidDecision fallback) {
        this.version = version;
        this.rules = Collections.unmodifiableMap(new TreeMap<>(rules));
        this.fallback = fallback;
    }

    /** The policy shipped with Lifeline (the tables under {@code /xid/} on the classpath), read once. */
    public static XidPolicy loadDefault() {
        return Shipped.POLICY;
    }

    /** Lazy holder: the shipped tables are parsed on first use only. */
    private static final class Shipped {
        private static final XidPolicy POLICY = XidPolicyLoader.fromClasspath();
    }

    /** Declared version of Lifeline's table plus a digest of all source tables, for example {@code 1+3fa2b9c0}. */
    public String version() {
        return version;
    }

    /** The rule for {@code xid}; never null (unknown codes get the default decision, with {@code known} false). */
    public XidRule rule(int xid) {
        XidRule r = rules.get(xid);
        if (r != null) {
            return r;
        }
        return new XidRule(
                xid, null, null, null, false, null, fallback.action(), fallback.health(), fallback.note(), false);
    }

    /** The decision applied to XIDs no table knows. */
    public XidAction defaultAction() {
        return fallback.action();
    }

    /** The verdict imposed by XIDs no table knows. */
    public GpuHealth defaultHealth() {
        return fallback.health();
    }

    /** Every XID some table knows, in code order. */
    public List<XidRule> knownRules() {
        return List.copyOf(rules.values());
    }
}
