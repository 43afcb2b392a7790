package io.lifeline.api.control;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.policy.PolicyService;
import io.lifeline.policy.PolicyView;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Automation policies: read by viewers, changed by admins (off, dry-run, on; per-namespace and per-pool overrides).
 * A reader limited to namespaces sees every policy with its default mode (they all may act on its jobs), and of the
 * overrides only those that can apply to its jobs: {@code namespace:} of its namespaces and {@code pool:} of the
 * pools its jobs run in now; the others would name other teams' namespaces and the fleet's other pools.
 */
@Path("/api/v1/policies")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class PoliciesResource {

    private static final String NAMESPACE = "namespace:";
    private static final String POOL = "pool:";

    private final PolicyService policies;
    private final CurrentCaller callers;
    private final Visibility visibility;

    PoliciesResource(PolicyService policies, CurrentCaller callers, Visibility visibility) {
        this.policies = policies;
        this.callers = callers;
        this.visibility = visibility;
    }

    /** A policy on the wire. */
    public record PolicyJson(String name, String description, String mode, Map<String, String> overrides) {
        static PolicyJson of(PolicyView v) {
            return of(v, k -> true);
        }

        /** The policy with only the overrides whose scope ({@code namespace:<ns>}, {@code pool:<pool>}) is shown. */
        static PolicyJson of(PolicyView v, Predicate<String> shown) {
            Map<String, String> o = new LinkedHashMap<>();
            new java.util.TreeMap<>(v.overrides()).forEach((k, m) -> {
                if (shown.test(k)) {
                    o.put(k, m.wire());
                }
            });
            return new PolicyJson(v.name().wire(), v.description(), v.mode().wire(), o);
        }
    }

    @GET
    public List<PolicyJson> list() {
        Predicate<String> shown = visibleOverrides();
        return policies.list().stream().map(v -> PolicyJson.of(v, shown)).toList();
    }

    @GET
    @Path("/{name}")
    public PolicyJson get(@PathParam("name") String name) {
        return PolicyJson.of(policies.get(named(name)), visibleOverrides());
    }

    /** Which override scopes the caller may see: all, or those of its namespaces and of the pools its jobs use. */
    private Predicate<String> visibleOverrides() {
        Scope scope = visibility.scope();
        if (scope.isEverything()) {
            return k -> true;
        }
        Set<String> pools = visibility.poolsUsed(scope);
        return k -> k.startsWith(NAMESPACE) ? scope.allowsNamespace(k.substring(NAMESPACE.length()))
                : k.startsWith(POOL) && pools.contains(k.substring(POOL.length()));
    }

    @PUT
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public PolicyJson update(@PathParam("name") String name, JsonNode body) {
        PolicyName p = named(name);
        if (body == null || !body.isObject()) {
            throw new ActionRejectedException("body", "expected {\"mode\": \"off|dry-run|on\", \"overrides\": {...}}");
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("mode") && !f.equals("overrides")) {
                throw new ActionRejectedException(f, "unknown field (known: mode, overrides)");
            }
        }
        PolicyMode mode = mode("mode", body.get("mode"));
        Map<String, PolicyMode> overrides = new LinkedHashMap<>();
        JsonNode o = body.get("overrides");
        if (o != null && !o.isNull()) {
            if (!o.isObject() || o.size() > 200) {
                throw new ActionRejectedException("overrides", "an object of at most 200 scopes");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                overrides.put(e.getKey(), mode("overrides." + e.getKey(), e.getValue()));
            }
        }
        return PolicyJson.of(policies.update(p, mode, overrides, callers.get()));
    }

    private static PolicyMode mode(String field, JsonNode n) {
        if (n == null || !n.isTextual()) {
            throw new ActionRejectedException(field, "required: off, dry-run or on");
        }
        return PolicyMode.fromWire(n.asText()).orElseThrow(() ->
                new ActionRejectedException(field, "one of off, dry-run, on"));
    }

    private static PolicyName named(String name) {
        return PolicyName.fromWire(name).orElseThrow(() -> new ActionNotFoundException("policy " + (name.length() > 60
                ? name.substring(0, 60) : name)));
    }
}
