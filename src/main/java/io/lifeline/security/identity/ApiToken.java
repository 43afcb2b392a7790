package io.lifeline.security.identity;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A stored API token: everything but the secret, of which only the SHA-256 is kept.
 *
 * @param id           public id, the middle part of {@code llt_<id>_<secret>}
 * @param name         what the admin called it (who or what uses it)
 * @param role         what it may do
 * @param namespaces   Kubernetes namespaces it is limited to; empty means fleet-wide
 * @param secretSha256 SHA-256 of the secret
 * @param createdAt    when it was created
 * @param createdBy    name of the token that created it ({@code bootstrap} for the first admin token)
 * @param expiresAt    when it stops working, or {@code null} for never
 * @param revokedAt    when it was revoked, or {@code null}
 * @param revokedBy    name of the token that revoked it, or {@code null}
 * @param lastUsedAt   last use as written to the store (may lag by up to the flush interval), or {@code null}
 * @param nodes        for an ingest token: the nodes it may send node and GPU events of (a node agent's); empty
 *                     means not bound to nodes
 * @param sources      for an ingest token: the CloudEvents sources it may send (a connector's); empty means
 *                     not bound to sources
 */
public record ApiToken(
        String id,
        String name,
        Role role,
        List<String> namespaces,
        byte[] secretSha256,
        Instant createdAt,
        String createdBy,
        Instant expiresAt,
        Instant revokedAt,
        String revokedBy,
        Instant lastUsedAt,
        List<String> nodes,
        List<String> sources) {

    /** A token bound to no node and no source. */
    public ApiToken(
            String id,
            String name,
            Role role,
            List<String> namespaces,
            byte[] secretSha256,
            Instant createdAt,
            String createdBy,
            Instant expiresAt,
            Instant revokedAt,
            String revokedBy,
            Instant lastUsedAt) {
        this(
                id,
                name,
                role,
                namespaces,
                secretSha256,
                createdAt,
                createdBy,
                expiresAt,
                revokedAt,
                revokedBy,
                lastUsedAt,
                List.of(),
                List.of());
    }

    /** Where a token stands at a given time. */
    public enum Status {
        /** Usable. */
        ACTIVE,
        /** Past its expiry. */
        EXPIRED,
        /** Revoked by an admin; final. */
        REVOKED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ApiToken {
        namespaces = List.copyOf(namespaces);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** Revocation wins over expiry: a revoked token stays revoked whatever its expiry says. */
    public Status status(Instant now) {
        if (revokedAt != null) {
            return Status.REVOKED;
        }
        if (expiresAt != null && !now.isBefore(expiresAt)) {
            return Status.EXPIRED;
        }
        return Status.ACTIVE;
    }

    /** The caller this token authenticates. */
    public Caller caller() {
        return Caller.ofToken(id, name, role, namespaces, nodes, sources);
    }

    @Override
    public String toString() {
        return "ApiToken[id=" + id + ", name=" + name + ", role=" + role.wireName() + ", namespaces=" + namespaces
                + (nodes.isEmpty() ? "" : ", nodes=" + nodes.size()) + (sources.isEmpty() ? "" : ", sources=" + sources)
                + "]";
    }
}
