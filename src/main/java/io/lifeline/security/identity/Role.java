package io.lifeline.security.identity;

import java.util.Locale;

/**
 * What a token may do. Roles nest: {@link #ADMIN} includes {@link #OPERATOR}, which includes {@link #VIEWER}.
 * {@link #INGEST} stands alone: it may only send events (the ingest endpoints), not read or act.
 */
public enum Role {

    /** Reads: fleet, jobs, events, incidents. */
    VIEWER(null),
    /** Acts on jobs and nodes (within its namespaces); includes viewer. */
    OPERATOR(VIEWER),
    /** Manages tokens, policies and settings; includes operator. Always fleet-wide. */
    ADMIN(OPERATOR),
    /** Only sends events: {@code POST /api/v1/events} and {@code POST /api/v1/connectors/**}. */
    INGEST(null);

    private final Role includes;

    Role(Role includes) {
        this.includes = includes;
    }

    /** True when this role grants everything {@code other} grants. */
    public boolean includes(Role other) {
        for (Role r = this; r != null; r = r.includes) {
            if (r == other) {
                return true;
            }
        }
        return false;
    }

    /** The name used in the API and the database ({@code viewer}, {@code operator}, ...). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming the legal values. */
    public static Role fromWireName(String name) {
        if (name != null) {
            for (Role r : values()) {
                if (r.wireName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("role: must be one of viewer, operator, admin, ingest, got '" + name + "'");
    }
}
