package io.lifeline.security;

import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Maps an identity provider's groups to a Lifeline role and namespace scope ({@code lifeline.security.oidc.groups}).
 * A person in several mapped groups gets the highest role among them; its scope is fleet-wide when any group granting
 * that role is, else the union of those groups' namespaces. Checked once at start-up, so a typo in a role or a
 * namespace stops the server instead of silently locking people out.
 */
public final class GroupRoles {

    /** One group's grant. */
    public record Grant(Role role, List<String> namespaces) {}

    /** What a person's groups grant: the role and its namespace scope (empty: fleet-wide). */
    public record Granted(Role role, Collection<String> namespaces) {}

    private final Map<String, Grant> grants;

    private GroupRoles(Map<String, Grant> grants) {
        this.grants = grants;
    }

    /**
     * Parses {@code group → "role[:ns1,ns2]"}.
     *
     * @throws IllegalArgumentException naming the group when its role or a namespace is not valid
     */
    public static GroupRoles parse(Map<String, String> config) {
        Map<String, Grant> grants = new LinkedHashMap<>();
        config.forEach((group, value) -> {
            String v = value == null ? "" : value.trim();
            int colon = v.indexOf(':');
            String roleName = (colon < 0 ? v : v.substring(0, colon)).trim();
            Role role;
            try {
                role = Role.fromWireName(roleName);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "lifeline.security.oidc.groups.\"" + group + "\": " + e.getMessage(), e);
            }
            TreeSet<String> ns = new TreeSet<>();
            if (colon >= 0) {
                for (String n : v.substring(colon + 1).split(",")) {
                    if (!n.isBlank()) {
                        try {
                            ns.add(Caller.requireValidNamespace(n.trim()));
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException(
                                    "lifeline.security.oidc.groups.\"" + group + "\": " + e.getMessage(), e);
                        }
                    }
                }
            }
            if (role == Role.ADMIN && !ns.isEmpty()) {
                throw new IllegalArgumentException("lifeline.security.oidc.groups.\"" + group + "\": the admin role is "
                        + "always fleet-wide; limit an operator or viewer to namespaces instead");
            }
            grants.put(group, new Grant(role, List.copyOf(ns)));
        });
        return new GroupRoles(Map.copyOf(grants));
    }

    /** The role and scope the groups grant, or empty when none of them is mapped. */
    public Optional<Granted> grant(Collection<String> groups) {
        Role best = null;
        for (String g : groups) {
            Grant grant = grants.get(g);
            if (grant != null && (best == null || rank(grant.role()) > rank(best))) {
                best = grant.role();
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        TreeSet<String> scope = new TreeSet<>();
        for (String g : groups) {
            Grant grant = grants.get(g);
            if (grant != null && grant.role() == best) {
                if (grant.namespaces().isEmpty()) {
                    return Optional.of(new Granted(best, List.of()));
                }
                scope.addAll(grant.namespaces());
            }
        }
        return Optional.of(new Granted(best, List.copyOf(scope)));
    }

    /** Admin over operator over viewer over ingest (which reads nothing). */
    private static int rank(Role r) {
        switch (r) {
            case ADMIN:
                return 3;
            case OPERATOR:
                return 2;
            case VIEWER:
                return 1;
            default:
                return 0;
        }
    }

    public boolean isEmpty() {
        return grants.isEmpty();
    }
}
