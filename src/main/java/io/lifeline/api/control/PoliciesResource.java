package io.lifeline.api.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.policy.AutomationBrakeService;
import io.lifeline.policy.PolicyService;
import io.lifeline.policy.PolicyView;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
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
 *
 * <p>The automation brake ({@code /brake}) is read by fleet-wide viewers and reset by fleet-wide operators: it holds
 * drains of nodes every namespace shares.
 */
@Path("/api/v1/policies")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class PoliciesResource {

    private static final String NAMESPACE = "namespace:";
    private static final String POOL = "pool:";

    private final PolicyService policies;
    private final AutomationBrakeService brake;
    private final CurrentCaller callers;
    private final Visibility visibility;

    PoliciesResource(
            PolicyService policies, AutomationBrakeService brake, CurrentCaller callers, Visibility visibility) {
        this.policies = policies;
        this.brake = brake;
        this.callers = callers;
        this.visibility = visibility;
    }

    /**
     * A policy on the wire; {@code onlyWhenBurning}, set by configuration alone, only for {@code stale-checkpoint}.
     */
    public record PolicyJson(
            String name,
            String description,
            String mode,
            Map<String, String> overrides,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean onlyWhenBurning) {
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
            return new PolicyJson(v.name().wire(), v.description(), v.mode().wire(), o, v.onlyWhenBurning());
        }
    }

    @GET
    public List<PolicyJson> list() {
        Predicate<String> shown = visibleOverrides();
        return policies.list().stream().map(v -> PolicyJson.of(v, shown)).toList();
    }

    /** The automation brake on the wire. */
    public record BrakeJson(
            boolean enabled,
            boolean engaged,
            TripJson trip,
            long held,
            CountJson fleet,
            List<PoolCountJson> pools,
            List<TakeJson> taken,
            ResetJson lastReset,
            BrakeSettingsJson settings) {
        static BrakeJson of(AutomationBrakeService.View v) {
            AutomationBrake.State st = v.state();
            AutomationBrake.Trip t = st.engaged();
            AutomationBrake.Reset r = st.lastReset();
            AutomationBrake.Settings s = v.settings();
            return new BrakeJson(
                    s.enabled(),
                    st.isEngaged(),
                    t == null ? null : new TripJson(t.at().toString(), t.policy(), t.node(), t.pool(), t.reason()),
                    st.held(),
                    new CountJson(v.fleet().taken(), v.fleet().bound()),
                    v.pools().stream()
                            .map(p -> new PoolCountJson(p.pool(), p.taken(), p.liveNodes(), p.bound()))
                            .toList(),
                    st.taken().stream()
                            .map(k -> new TakeJson(k.node(), k.pool(), k.at().toString(), k.policy()))
                            .toList(),
                    r == null ? null : new ResetJson(r.at().toString(), r.by(), r.reason()),
                    new BrakeSettingsJson(s.window().toSeconds(), s.poolShare(), s.poolMinNodes(), s.fleetNodes()));
        }
    }

    /** Why the brake engaged: the decision that would have gone past a bound. */
    public record TripJson(String at, String policy, String node, String pool, String reason) {}

    /** Nodes taken within the window against the bound. */
    public record CountJson(int taken, int bound) {}

    /** One pool's nodes taken within the window, its live nodes and its bound. */
    public record PoolCountJson(String pool, int taken, int liveNodes, int bound) {}

    /** A node a policy took within the window. */
    public record TakeJson(String node, String pool, String at, String policy) {}

    /** The latest reset. */
    public record ResetJson(String at, String by, String reason) {}

    /** The brake's bounds ({@code lifeline.policies.brake.*}). */
    public record BrakeSettingsJson(long windowSeconds, double poolShare, int poolMinNodes, int fleetNodes) {}

    @GET
    @Path("/brake")
    public BrakeJson brake() {
        return BrakeJson.of(brake.view());
    }

    /** Releases the brake; the body, optional, is {@code {"reason": "..."}}. Audited as {@code policy.brake_reset}. */
    @POST
    @Path("/brake/reset")
    @Consumes(MediaType.WILDCARD)
    public BrakeJson resetBrake(JsonNode body) {
        String reason = null;
        if (body != null && !body.isNull() && !body.isMissingNode()) {
            if (!body.isObject()) {
                throw new ActionRejectedException("body", "expected {\"reason\": \"...\"} or nothing");
            }
            for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!f.equals("reason")) {
                    throw new ActionRejectedException(
                            f.length() > 60 ? f.substring(0, 60) : f, "unknown field (known: reason)");
                }
            }
            JsonNode r = body.get("reason");
            if (r != null && !r.isNull() && !r.isTextual()) {
                throw new ActionRejectedException("reason", "a text");
            }
            reason = r == null || r.isNull() ? null : r.asText();
        }
        return BrakeJson.of(brake.reset(callers.get(), reason));
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
        return k -> k.startsWith(NAMESPACE)
                ? scope.allowsNamespace(k.substring(NAMESPACE.length()))
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
        return PolicyMode.fromWire(n.asText())
                .orElseThrow(() -> new ActionRejectedException(field, "one of off, dry-run, on"));
    }

    private static PolicyName named(String name) {
        return PolicyName.fromWire(name)
                .orElseThrow(() ->
                        new ActionNotFoundException("policy " + (name.length() > 60 ? name.substring(0, 60) : name)));
    }
}
