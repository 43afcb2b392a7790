package io.lifeline.security.identity;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Who is making the current request: the token's name, role and namespace scope. Action code asks it before
 * acting ({@link #mayActOnNamespace}, {@link #mayActOnNodes}) or lets it throw ({@link #requireActOnNamespace},
 * {@link #requireActOnNodes}). A token limited to namespaces may act only on jobs in them; node-level actions
 * (cordon, drain) touch every job on the node, so they need a fleet-wide operator.
 *
 * <p>Obtain the current one from {@link io.lifeline.security.CurrentCaller#get()}.
 */
public final class Caller {

    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Caller ANONYMOUS = new Caller(null, "anonymous", null, Set.of());

    private final String tokenId;
    private final String name;
    private final Role role;
    private final Set<String> namespaces;
    /** The identity provider's subject for a person or client signed in through OIDC; null otherwise. */
    private final String subject;
    /** For an ingest token bound to nodes: those nodes; empty otherwise. */
    private final Set<String> nodes;
    /** For an ingest token bound to CloudEvents sources: those sources; empty otherwise. */
    private final Set<String> sources;

    private Caller(String tokenId, String name, Role role, Set<String> namespaces) {
        this(tokenId, name, role, namespaces, null, Set.of(), Set.of());
    }

    private Caller(
            String tokenId,
            String name,
            Role role,
            Set<String> namespaces,
            String subject,
            Set<String> nodes,
            Set<String> sources) {
        this.tokenId = tokenId;
        this.name = Objects.requireNonNull(name, "name");
        this.role = role;
        this.namespaces = namespaces;
        this.subject = subject;
        this.nodes = nodes;
        this.sources = sources;
    }

    /**
     * A person or client authenticated by the OIDC identity provider, with the role its groups map to; an empty
     * {@code namespaces} means fleet-wide.
     */
    public static Caller ofIdentityProvider(String subject, String name, Role role, Collection<String> namespaces) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(role, "role");
        TreeSet<String> ns = new TreeSet<>();
        for (String n : namespaces) {
            ns.add(requireValidNamespace(n));
        }
        return new Caller(
                null,
                name == null || name.isBlank() ? subject : name,
                role,
                Collections.unmodifiableSet(ns),
                subject,
                Set.of(),
                Set.of());
    }

    /** The identity provider's subject, or {@code null} for a token caller. */
    public String subject() {
        return subject;
    }

    /** What rate limits count requests by: the token, or the identity provider's subject. */
    public String rateKey() {
        return tokenId != null ? tokenId : subject != null ? "oidc:" + subject : name;
    }

    /** A caller authenticated by an API token; an empty {@code namespaces} means fleet-wide. */
    public static Caller ofToken(String tokenId, String name, Role role, Collection<String> namespaces) {
        return ofToken(tokenId, name, role, namespaces, Set.of(), Set.of());
    }

    /**
     * A caller authenticated by an API token bound to {@code nodes} (it sends node and GPU events of those nodes only)
     * and to {@code sources} (it sends events of those CloudEvents sources only); empty means not bound.
     */
    public static Caller ofToken(
            String tokenId,
            String name,
            Role role,
            Collection<String> namespaces,
            Collection<String> nodes,
            Collection<String> sources) {
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(role, "role");
        TreeSet<String> ns = new TreeSet<>();
        for (String n : namespaces) {
            ns.add(requireValidNamespace(n));
        }
        return new Caller(
                tokenId,
                name,
                role,
                Collections.unmodifiableSet(ns),
                null,
                Collections.unmodifiableSet(new TreeSet<>(nodes)),
                Collections.unmodifiableSet(new TreeSet<>(sources)));
    }

    /** The nodes this caller is bound to (it sends their node and GPU events only); empty when not bound. */
    public Set<String> nodes() {
        return nodes;
    }

    /** The CloudEvents sources this caller is bound to (it sends their events only); empty when not bound. */
    public Set<String> sources() {
        return sources;
    }

    /** Whether this caller is bound to nodes or sources: an agent's or connector's token, nobody else's. */
    public boolean isBound() {
        return !nodes.isEmpty() || !sources.isEmpty();
    }

    /** Nobody: no request, or an open endpoint. May do nothing that needs a role. */
    public static Caller anonymous() {
        return ANONYMOUS;
    }

    /** Everything allowed, fleet-wide: what every request is when {@code lifeline.security.enabled=false}. */
    public static Caller unrestricted(String name) {
        return new Caller(null, name, Role.ADMIN, Set.of());
    }

    /** The token's id ({@code null} for anonymous or unrestricted callers); safe to log, it is not the secret. */
    public String tokenId() {
        return tokenId;
    }

    /** The token's name, as given by the admin who created it. */
    public String name() {
        return name;
    }

    /** The role, or {@code null} for an anonymous caller. */
    public Role role() {
        return role;
    }

    /** The namespaces this caller is limited to, sorted; empty when fleet-wide. */
    public Set<String> namespaces() {
        return namespaces;
    }

    /** How audit records and logs name this caller: the token's name and id (never its secret). */
    public String actor() {
        if (subject != null) {
            return name + " [oidc:" + subject + "]";
        }
        return tokenId == null ? name : name + " [" + tokenId + "]";
    }

    public boolean isAuthenticated() {
        return role != null;
    }

    /** True when the caller's role includes {@code r}. */
    public boolean has(Role r) {
        return role != null && role.includes(r);
    }

    /** True for an authenticated caller not limited to namespaces. */
    public boolean isFleetWide() {
        return role != null && namespaces.isEmpty();
    }

    /** May this caller read what happens in namespace {@code ns}? (viewer or more, in scope) */
    public boolean mayReadNamespace(String ns) {
        return has(Role.VIEWER) && inScope(ns);
    }

    /** May this caller act (suspend, resize, checkpoint ...) on a job in namespace {@code ns}? */
    public boolean mayActOnNamespace(String ns) {
        return has(Role.OPERATOR) && inScope(ns);
    }

    /** May this caller act on nodes (cordon, drain)? Needs a fleet-wide operator. */
    public boolean mayActOnNodes() {
        return has(Role.OPERATOR) && isFleetWide();
    }

    /** Throws {@link AccessDeniedException} unless {@link #mayActOnNamespace(String)}. */
    public void requireActOnNamespace(String ns) {
        if (!mayActOnNamespace(ns)) {
            throw new AccessDeniedException(
                    has(Role.OPERATOR)
                            ? "token '" + name + "' may not act in namespace '" + ns + "' (limited to " + namespaces
                                    + ")"
                            : "acting on jobs needs the operator role");
        }
    }

    /** Throws {@link AccessDeniedException} unless {@link #mayActOnNodes()}. */
    public void requireActOnNodes() {
        if (!mayActOnNodes()) {
            throw new AccessDeniedException(
                    has(Role.OPERATOR)
                            ? "node actions affect every namespace on the node: they need a fleet-wide operator token"
                            : "acting on nodes needs the operator role");
        }
    }

    private boolean inScope(String ns) {
        return namespaces.isEmpty() || (ns != null && namespaces.contains(ns));
    }

    /** Checks a Kubernetes namespace name (RFC 1123 label) and returns it. */
    public static String requireValidNamespace(String ns) {
        if (ns == null || !NAMESPACE.matcher(ns).matches()) {
            throw new IllegalArgumentException("namespaces: '" + ns + "' is not a Kubernetes namespace name "
                    + "(lower-case letters, digits and '-', at most 63)");
        }
        return ns;
    }

    @Override
    public String toString() {
        return "Caller[" + name + ", " + (role == null ? "anonymous" : role.wireName())
                + (namespaces.isEmpty() ? "" : ", namespaces=" + namespaces)
                + (nodes.isEmpty() ? "" : ", nodes=" + nodes.size()) + (sources.isEmpty() ? "" : ", sources=" + sources)
                + "]";
    }
}
