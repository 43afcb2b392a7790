package io.lifeline.domain.objective;

import java.util.Objects;

/**
 * The jobs an objective holds: every job of one kind of group, written {@code kind:value} (for example
 * {@code namespace:research}, {@code job:research/llm-70b}, {@code owner:alice}, {@code pool:gpu-p5}).
 *
 * @param kind   what the value names
 * @param value  the job ({@code namespace/name}), namespace, owner or pool
 */
public record ObjectiveScope(ScopeKind kind, String value) {

    private static final int MAX_VALUE = 253;

    public ObjectiveScope {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(value, "value");
    }

    /**
     * The scope written {@code kind:value}.
     *
     * @throws IllegalArgumentException with the reason, when it is not one
     */
    public static ObjectiveScope parse(String s) {
        String v = s == null ? "" : s.trim();
        int colon = v.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(
                    "'" + clip(v) + "' is not kind:value (job:<namespace>/<name>, namespace:<ns>, owner:<owner> or"
                            + " pool:<pool>)");
        }
        ScopeKind kind = ScopeKind.fromWire(v.substring(0, colon))
                .orElseThrow(() -> new IllegalArgumentException(
                        "'" + clip(v.substring(0, colon)) + "' is not a scope kind (job, namespace, owner or pool)"));
        String value = v.substring(colon + 1).trim();
        if (value.isEmpty() || value.length() > MAX_VALUE) {
            throw new IllegalArgumentException("the " + kind.wire() + " is empty or longer than " + MAX_VALUE);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.isWhitespace(c)) {
                throw new IllegalArgumentException("the " + kind.wire() + " holds a space or control character");
            }
        }
        if (kind == ScopeKind.JOB && value.indexOf('/') <= 0) {
            throw new IllegalArgumentException("a job is named <namespace>/<name>, got '" + clip(value) + "'");
        }
        return new ObjectiveScope(kind, value);
    }

    /** The namespace the scope lies in, or null when it spans namespaces (an owner, a pool). */
    public String namespace() {
        return switch (kind) {
            case NAMESPACE -> value;
            case JOB -> value.substring(0, value.indexOf('/'));
            default -> null;
        };
    }

    /** The key of a job's group of this kind: what {@link #value()} is compared with. */
    static String keyOf(ScopeKind kind, JobSample j) {
        return switch (kind) {
            case JOB -> j.job();
            case NAMESPACE -> j.namespace();
            case OWNER -> j.owner();
            case POOL -> j.pool();
        };
    }

    @Override
    public String toString() {
        return kind.wire() + ":" + value;
    }

    private static String clip(String s) {
        return s.length() > 60 ? s.substring(0, 60) : s;
    }
}
