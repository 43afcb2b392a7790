package io.lifeline.security;

import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one table that says who may call what, by HTTP method and path. It is read top to bottom and the first
 * matching rule decides. Everything under {@code /api} that no rule names is denied to every role, so a new
 * endpoint is protected until someone adds its line here; everything outside {@code /api} (the UI, health, the
 * OpenAPI document) is open.
 *
 * <p>Paths are matched in a canonical form (percent-decoded, matrix parameters dropped, dot segments resolved,
 * repeated slashes collapsed, lower case) so that spelling a path differently never reaches a laxer rule.
 */
public final class AccessRules {

    /** Requests counted against a per-token rate limit. */
    public enum RateClass {
        /** Event ingest. */
        INGEST,
        /** Action creation. */
        ACTIONS
    }

    /** What a rule requires. */
    public enum Kind {
        /** No token needed. */
        OPEN,
        /** Any valid token, whatever its role. */
        ANY_ROLE,
        /** A token whose role includes one of the rule's roles. */
        ROLES,
        /** Nobody: the default for {@code /api} paths no rule names. */
        DENY
    }

    /**
     * One line of the table.
     *
     * @param methods HTTP methods it applies to; empty means every method ({@code HEAD} counts as {@code GET})
     * @param pattern a path, or a prefix ending in {@code /**} that also matches the prefix itself
     * @param kind    what it requires
     * @param roles   for {@link Kind#ROLES}: any one of these (role nesting applies)
     * @param rate    the rate limit counted against, or {@code null}
     * @param fleetWide for {@link Kind#ROLES}: only a caller not limited to namespaces (the path is about what every
     *                  namespace shares: nodes, GPUs, the connectors' state)
     */
    public record Rule(
            Set<String> methods, String pattern, Kind kind, Set<Role> roles, RateClass rate, boolean fleetWide) {

        /** A rule any caller satisfying {@code kind} and {@code roles} passes, whatever its namespaces. */
        public Rule(Set<String> methods, String pattern, Kind kind, Set<Role> roles, RateClass rate) {
            this(methods, pattern, kind, roles, rate, false);
        }

        boolean matches(String method, String path) {
            if (!methods.isEmpty() && !methods.contains(method)) {
                return false;
            }
            if (pattern.endsWith("/**")) {
                String prefix = pattern.substring(0, pattern.length() - 3);
                return path.equals(prefix) || path.startsWith(prefix + "/");
            }
            return path.equals(pattern);
        }

        /** True when {@code caller} satisfies this rule (an OPEN rule is satisfied by anyone). */
        public boolean allows(Caller caller) {
            switch (kind) {
                case OPEN:
                    return true;
                case ANY_ROLE:
                    return caller.isAuthenticated();
                case ROLES:
                    return roles.stream().anyMatch(caller::has) && (!fleetWide || caller.isFleetWide());
                default:
                    return false;
            }
        }

        /** The table line as people read it, e.g. {@code POST /api/v1/events -> operator|ingest (rate: INGEST)}. */
        public String describe() {
            String m = methods.isEmpty() ? "*" : String.join(",", methods);
            String who = kind == Kind.ROLES
                    ? String.join(
                            "|", roles.stream().sorted().map(Role::wireName).toList())
                    : kind.name().toLowerCase(Locale.ROOT);
            return m + " " + pattern + " -> " + who + (fleetWide ? ", fleet-wide" : "")
                    + (rate == null ? "" : " (rate: " + rate + ")");
        }
    }

    private static final Set<String> READ = Set.of("GET");
    private static final Set<String> WRITE = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> POST = Set.of("POST");
    private static final Set<String> ANY = Set.of();

    private final List<Rule> rules;

    private AccessRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Lifeline's table. {@code metricsProtected} puts {@code /metrics} behind a viewer token. */
    public static AccessRules standard(boolean metricsProtected) {
        List<Rule> r = new ArrayList<>();
        r.add(open(ANY, "/q/health/**"));
        r.add(metricsProtected ? roles(READ, "/metrics", null, Role.VIEWER) : open(READ, "/metrics"));
        r.add(open(READ, "/q/openapi/**"));
        r.add(open(READ, "/q/swagger-ui/**"));
        r.add(new Rule(READ, "/api/v1/whoami", Kind.ANY_ROLE, Set.of(), null));
        // Token metadata and the security audit are admin business, reads included.
        r.add(roles(ANY, "/api/v1/tokens/**", null, Role.ADMIN));
        r.add(roles(ANY, "/api/v1/security/**", null, Role.ADMIN));
        r.add(roles(POST, "/api/v1/events", RateClass.INGEST, Role.INGEST, Role.OPERATOR));
        // Torchelastic events are about jobs: a scoped token's are refused one by one outside its namespaces. Every
        // other connector (cloud notices, GPU scrapes) makes node events, and their state is the fleet's.
        r.add(roles(POST, "/api/v1/connectors/torchelastic", RateClass.INGEST, Role.INGEST, Role.OPERATOR));
        r.add(fleetWide(roles(POST, "/api/v1/connectors/**", RateClass.INGEST, Role.INGEST, Role.OPERATOR)));
        r.add(fleetWide(roles(READ, "/api/v1/connectors/**", null, Role.VIEWER)));
        r.add(roles(POST, "/api/v1/actions/**", RateClass.ACTIONS, Role.OPERATOR));
        // Only a job's stacks are captured by POST under a job: an operator's "what is it doing right now?".
        r.add(roles(POST, "/api/v1/jobs/**", RateClass.ACTIONS, Role.OPERATOR));
        // Alerts are read by viewers; muting them is an on-call (operator) decision.
        r.add(roles(READ, "/api/v1/alerts/**", null, Role.VIEWER));
        r.add(roles(READ, "/api/v1/silences/**", null, Role.VIEWER));
        r.add(roles(Set.of("POST", "DELETE"), "/api/v1/silences/**", null, Role.OPERATOR));
        // Training agents without Kafka: long-poll their job's commands, acknowledge them (an event, so rate-limited),
        // give their claim up as they exit (an operator may release any agent's: the endpoint checks the role).
        r.add(roles(READ, "/api/v1/agents/**", null, Role.INGEST, Role.OPERATOR));
        r.add(roles(POST, "/api/v1/agents/**", RateClass.INGEST, Role.INGEST, Role.OPERATOR));
        // The automation brake holds drains of nodes every namespace shares: fleet-wide viewers read it, fleet-wide
        // operators (on call) release it.
        r.add(fleetWide(roles(READ, "/api/v1/policies/brake", null, Role.VIEWER)));
        r.add(fleetWide(roles(POST, "/api/v1/policies/brake/reset", RateClass.ACTIONS, Role.OPERATOR)));
        r.add(roles(Set.of("DELETE"), "/api/v1/agents/**", null, Role.INGEST, Role.OPERATOR));
        r.add(roles(READ, "/api/**", null, Role.VIEWER));
        // A what-if only computes: a read, though its body needs a POST.
        r.add(roles(POST, "/api/v1/whatif", null, Role.VIEWER));
        r.add(roles(WRITE, "/api/v1/policies/**", null, Role.ADMIN));
        r.add(fleetWide(roles(WRITE, "/api/v1/objectives", null, Role.ADMIN)));
        r.add(roles(WRITE, "/api/v1/settings/**", null, Role.ADMIN));
        r.add(new Rule(ANY, "/api/**", Kind.DENY, Set.of(), null));
        r.add(open(ANY, "/**"));
        return new AccessRules(r);
    }

    private static Rule fleetWide(Rule r) {
        return new Rule(r.methods(), r.pattern(), r.kind(), r.roles(), r.rate(), true);
    }

    private static Rule open(Set<String> methods, String pattern) {
        return new Rule(methods, pattern, Kind.OPEN, Set.of(), null);
    }

    private static Rule roles(Set<String> methods, String pattern, RateClass rate, Role first, Role... more) {
        EnumSet<Role> set = EnumSet.of(first, more);
        return new Rule(methods, pattern, Kind.ROLES, Set.copyOf(set), rate);
    }

    /** The rules, in the order they are tried. */
    public List<Rule> rules() {
        return rules;
    }

    /** The rule deciding a request; every path matches some rule (the table ends with a catch-all). */
    public Rule match(String method, String rawPath) {
        String m = method == null ? "" : method.toUpperCase(Locale.ROOT);
        if (m.equals("HEAD")) {
            m = "GET";
        }
        String path = canonical(rawPath);
        for (Rule rule : rules) {
            if (rule.matches(m, path)) {
                return rule;
            }
        }
        throw new IllegalStateException("the access table has no rule for " + m + " " + path);
    }

    /**
     * The canonical form rules are matched against. A path that cannot be decoded is mapped under {@code /api} so
     * that it is denied rather than let through.
     */
    public static String canonical(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "/";
        }
        String decoded = percentDecode(rawPath);
        if (decoded == null) {
            return "/api/undecodable-path";
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.split("/")) {
            int semicolon = segment.indexOf(';');
            String s = semicolon >= 0 ? segment.substring(0, semicolon) : segment;
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(s);
            }
        }
        return ("/" + String.join("/", segments)).toLowerCase(Locale.ROOT);
    }

    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        String once = out.toString(StandardCharsets.UTF_8);
        // Decode repeatedly: a double-encoded path must not hide a segment from the table either.
        return once.equals(s) ? once : percentDecode(once);
    }
}
