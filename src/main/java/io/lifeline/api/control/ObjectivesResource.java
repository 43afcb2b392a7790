package io.lifeline.api.control;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionsUnavailableException;
import io.lifeline.domain.objective.ObjectiveScope;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.objective.store.ObjectiveStore;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Goodput objectives and their budgets: read by viewers, set by fleet-wide admins as a whole ({@code PUT} replaces the
 * set, validated before anything changes, stored and audited). A reader limited to namespaces sees the objectives of
 * its namespaces and jobs; an objective over an owner or a pool spans namespaces and is shown to fleet-wide readers.
 */
@Path("/api/v1/objectives")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class ObjectivesResource {

    private static final Set<String> FIELDS =
            Set.of("name", "scope", "ettrTarget", "window", "lostGpuHoursLimit", "moneyLimit");

    private final ObjectiveService objectives;
    private final CurrentCaller callers;
    private final Visibility visibility;

    ObjectivesResource(ObjectiveService objectives, CurrentCaller callers, Visibility visibility) {
        this.objectives = objectives;
        this.callers = callers;
        this.visibility = visibility;
    }

    /** The objectives with their budgets; {@code job} keeps those whose scope holds that job. */
    @GET
    public ObjectivesJson list(@QueryParam("job") String job) {
        Scope scope = visibility.scope();
        List<ObjectiveStatus> all = job == null || job.isBlank() ? objectives.statuses() : objectives.forJob(job);
        List<ObjectiveStatusJson> out = new ArrayList<>();
        for (ObjectiveStatus s : all) {
            if (visible(scope, s)) {
                out.add(ObjectiveStatusJson.of(s));
            }
        }
        return new ObjectivesJson(
                objectives.source().name().toLowerCase(java.util.Locale.ROOT),
                objectives.thresholds().fast(),
                objectives.thresholds().slow(),
                out);
    }

    @GET
    @Path("/{name}")
    public ObjectiveStatusJson get(@PathParam("name") String name) {
        Scope scope = visibility.scope();
        return objectives
                .status(name)
                .filter(s -> visible(scope, s))
                .map(ObjectiveStatusJson::of)
                .orElseThrow(() -> new ActionNotFoundException(
                        "objective " + (name.length() > 60 ? name.substring(0, 60) : name)));
    }

    /** Replaces the whole set: {@code {"objectives": [{"name", "scope", "ettrTarget", "window", ...}]}}. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public ObjectivesJson replace(JsonNode body) {
        Caller caller = callers.get();
        if (!caller.has(Role.ADMIN) || !caller.isFleetWide()) {
            throw new AccessDeniedException("setting objectives needs a fleet-wide admin token");
        }
        List<ObjectiveStore.Stored> set = parse(body);
        try {
            objectives.replace(set, caller.actor());
        } catch (IllegalArgumentException e) {
            throw new ActionRejectedException("objectives", e.getMessage());
        } catch (StoreUnavailableException e) {
            throw new ActionsUnavailableException("the objective store is unavailable; nothing changed", e);
        }
        return list(null);
    }

    private static boolean visible(Scope scope, ObjectiveStatus s) {
        if (scope.isEverything()) {
            return true;
        }
        ObjectiveScope os = s.objective().scope();
        return os.namespace() != null && scope.allowsNamespace(os.namespace());
    }

    private static List<ObjectiveStore.Stored> parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ActionRejectedException("body", "expected {\"objectives\": [...]}");
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("objectives")) {
                throw new ActionRejectedException(clip(f), "unknown field (known: objectives)");
            }
        }
        JsonNode list = body.get("objectives");
        if (list == null || !list.isArray()) {
            throw new ActionRejectedException("objectives", "required: an array (empty to remove them all)");
        }
        List<ObjectiveStore.Stored> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode o = list.get(i);
            String at = "objectives[" + i + "]";
            if (!o.isObject()) {
                throw new ActionRejectedException(at, "an object");
            }
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!FIELDS.contains(f)) {
                    throw new ActionRejectedException(at + "." + clip(f), "unknown field (known: " + FIELDS + ")");
                }
            }
            out.add(new ObjectiveStore.Stored(
                    text(o, "name", at, true),
                    text(o, "scope", at, true),
                    number(o, "ettrTarget", at),
                    text(o, "window", at, false),
                    numberOrNull(o, "lostGpuHoursLimit", at),
                    numberOrNull(o, "moneyLimit", at)));
        }
        return out;
    }

    private static String text(JsonNode o, String field, String at, boolean required) {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new ActionRejectedException(at + "." + field, "required");
            }
            return null;
        }
        if (!n.isTextual()) {
            throw new ActionRejectedException(at + "." + field, "a text");
        }
        return n.asText();
    }

    private static double number(JsonNode o, String field, String at) {
        Double d = numberOrNull(o, field, at);
        if (d == null) {
            throw new ActionRejectedException(at + "." + field, "required: a number");
        }
        return d;
    }

    private static Double numberOrNull(JsonNode o, String field, String at) {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isNumber()) {
            throw new ActionRejectedException(at + "." + field, "a number");
        }
        return n.asDouble();
    }

    private static String clip(String s) {
        return s.length() > 60 ? s.substring(0, 60) : s;
    }

    /** The objectives in force, where they came from, and the burn-rate thresholds. */
    public record ObjectivesJson(
            String source, double fastBurn, double slowBurn, List<ObjectiveStatusJson> objectives) {}

    /** One objective with its budget over its window; see {@link ObjectiveStatus} for the formulas. */
    public record ObjectiveStatusJson(
            String name,
            String scope,
            double ettrTarget,
            String window,
            Double lostGpuHoursLimit,
            Double moneyLimit,
            String state,
            String sampledAt,
            int jobs,
            List<String> jobNames,
            Double ettr,
            double heldGpuHours,
            double productiveGpuHours,
            double budgetGpuHours,
            double spentGpuHours,
            double remainingGpuHours,
            Double remainingShare,
            Double budgetMoney,
            Double spentMoney,
            Double remainingMoney,
            double pricedShare,
            double lostGpuHours,
            Double lostMoney,
            Double lostLimitRemainingGpuHours,
            Double moneyLimitRemaining,
            Map<String, Double> spentByCause,
            Map<String, Double> spentByPhase,
            Map<String, Double> burnRates,
            boolean fastBurn,
            boolean slowBurn,
            Double hoursToExhaustion) {

        static ObjectiveStatusJson of(ObjectiveStatus s) {
            var o = s.objective();
            return new ObjectiveStatusJson(
                    o.name(),
                    o.scope().toString(),
                    o.ettrTarget(),
                    io.lifeline.domain.objective.Objective.formatWindow(o.window()),
                    o.lostGpuHoursLimit(),
                    o.moneyLimit(),
                    s.state().wire(),
                    s.sampledAt() == null ? null : s.sampledAt().toString(),
                    s.jobs(),
                    s.jobNames(),
                    s.ettr(),
                    s.heldGpuHours(),
                    s.productiveGpuHours(),
                    s.budgetGpuHours(),
                    s.spentGpuHours(),
                    s.remainingGpuHours(),
                    s.remainingShare(),
                    s.budgetMoney(),
                    s.spentMoney(),
                    s.remainingMoney(),
                    s.pricedShare(),
                    s.lostGpuHours(),
                    s.lostMoney(),
                    s.lostLimitRemainingGpuHours(),
                    s.moneyLimitRemaining(),
                    s.spentByCause(),
                    s.spentByPhase(),
                    s.burnRates(),
                    s.fastBurn(),
                    s.slowBurn(),
                    s.hoursToExhaustion());
        }
    }
}
