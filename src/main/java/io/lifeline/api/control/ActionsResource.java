package io.lifeline.api.control;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionService;
import io.lifeline.action.Submitted;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.api.read.QueryParams;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.policy.AutomationBrakeService;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.lifeline.security.identity.Caller;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The control API: request actions (or their dry runs), follow them, cancel them. See docs/api.md for the
 * idempotency contract.
 */
@Path("/api/v1/actions")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class ActionsResource {

    /** Action ids are generated: anything else (paths, quotes, dots) is simply not an action. */
    static final Pattern ID = Pattern.compile("act-[0-9a-f]{20}");

    private static final int MAX_PARAMS = 16;
    private static final int MAX_TARGET = 300;
    private static final int MAX_VALUE = 500;

    private final ActionService actions;
    private final AutomationBrakeService brake;
    private final CurrentCaller callers;
    private final Visibility visibility;

    ActionsResource(ActionService actions, AutomationBrakeService brake, CurrentCaller callers, Visibility visibility) {
        this.actions = actions;
        this.brake = brake;
        this.callers = callers;
        this.visibility = visibility;
    }

    /**
     * A dry run's answer.
     *
     * @param brake for an action that takes a node (a drain): what the automation brake would do with a policy's
     *              decision to take it now; null for other kinds. A person's drain is never held by the brake.
     */
    public record DryRun(boolean dryRun, String kind, String target, Impact impact, BrakePreview brake) {}

    /**
     * What the automation brake would do with a policy's drain of the node now.
     *
     * @param verdict   {@code allowed}, {@code already-counted} (the node counts already), {@code tripped} (this
     *                  drain would engage the brake) or {@code held} (the brake is engaged)
     * @param reason    why, in words
     * @param fleet     nodes taken within the window fleet-wide, before this one, and the bound
     * @param pool      the node's pool, null when it has none
     * @param poolCount nodes of that pool taken within the window, before this one, and the bound; null without a pool
     */
    public record BrakePreview(
            String verdict, String reason, AutomationBrake.Count fleet, String pool, AutomationBrake.Count poolCount) {
        static BrakePreview of(AutomationBrakeService.Preview p) {
            AutomationBrake.Outcome o = p.outcome();
            String reason = o.verdict() == AutomationBrake.Verdict.TRIPPED
                    ? o.reason() + ": a policy's drain of it now would engage the brake"
                    : o.reason();
            return new BrakePreview(
                    o.verdict().wire(), reason, o.fleet(), p.target().pool(), o.pool());
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body, @HeaderParam("Idempotency-Key") String key) {
        Caller caller = callers.get();
        ParsedRequest p = parse(body);
        if (p.dryRun()) {
            Impact impact = actions.dryRun(p.request(), caller);
            BrakePreview preview = null;
            if (AutomationBrake.takesNode(p.request())) {
                preview = BrakePreview.of(brake.preview(p.request().target()));
            }
            return Response.ok(new DryRun(
                            true, p.request().kind().wire(), p.request().target(), impact, preview))
                    .build();
        }
        Submitted s = actions.submit(p.request(), caller, key);
        Response.ResponseBuilder r = Response.created(
                        URI.create("/api/v1/actions/" + s.action().id()))
                .entity(ActionJson.of(s.action()));
        if (s.replayed()) {
            r.header("Idempotency-Replayed", "true");
        }
        return r.build();
    }

    @GET
    public Page<ActionJson> list(
            @QueryParam("kind") String kind,
            @QueryParam("state") String state,
            @QueryParam("target") String target,
            @QueryParam("requestedBy") String requestedBy,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        if (cursor != null) {
            try {
                Cursor.longs(cursor, 1);
            } catch (IllegalArgumentException e) {
                throw new ActionRejectedException("cursor", "not a cursor this API returned");
            }
        }
        ActionKind k = kind == null
                ? null
                : ActionKind.fromWire(kind).orElseThrow(() -> new ActionRejectedException("kind", "one of " + kinds()));
        ActionState st = QueryParams.enumValue("state", state, ActionState.class);
        // The scope is part of the query, so that a page holds only actions the caller may see and is full.
        Scope scope = visibility.scope();
        Page<ActionView> page = actions.list(new ActionQuery(
                k,
                st,
                blankToNull(target),
                blankToNull(requestedBy),
                QueryParams.instant("from", from),
                QueryParams.instant("to", to),
                QueryParams.limit(limit, 50, 500),
                cursor,
                scope.isEverything() ? null : scope.namespaces(),
                visibility.nodesUsed(scope)));
        return page.map(ActionJson::of);
    }

    @GET
    @Path("/{id}")
    public ActionJson get(@PathParam("id") String id) {
        return ActionJson.of(readable(id));
    }

    @POST
    @Path("/{id}/cancel")
    public ActionJson cancel(@PathParam("id") String id) {
        readable(id);
        return ActionJson.of(actions.cancel(id, callers.get()));
    }

    private ActionView readable(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new ActionNotFoundException(id == null ? "" : id.length() > 40 ? id.substring(0, 40) + "..." : id);
        }
        ActionView a = actions.find(id).orElseThrow(() -> new ActionNotFoundException(id));
        Scope scope = visibility.scope();
        if (!scope.isEverything() && !scope.allowsTarget(a.target(), visibility.nodesUsed(scope))) {
            throw new ActionNotFoundException(id);
        }
        return a;
    }

    /** A request body, validated field by field. */
    record ParsedRequest(ActionRequest request, boolean dryRun) {}

    static ParsedRequest parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ActionRejectedException(
                    "body", "expected a JSON object with kind, target, params, reason, dryRun");
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!List.of("kind", "target", "params", "reason", "dryRun").contains(f)) {
                throw new ActionRejectedException(f, "unknown field (known: kind, target, params, reason, dryRun)");
            }
        }
        JsonNode kindNode = body.get("kind");
        if (kindNode == null || !kindNode.isTextual()) {
            throw new ActionRejectedException("kind", "required: one of " + kinds());
        }
        ActionKind kind = ActionKind.fromWire(kindNode.asText())
                .orElseThrow(() -> new ActionRejectedException(
                        "kind", "one of " + kinds() + ", got '" + cut(kindNode.asText()) + "'"));
        JsonNode targetNode = body.get("target");
        if (targetNode == null || !targetNode.isTextual() || targetNode.asText().isBlank()) {
            throw new ActionRejectedException(
                    "target",
                    "required: "
                            + (kind.targetKind() == ActionKind.TargetKind.NODE
                                    ? "a node name"
                                    : "a job as namespace/name"));
        }
        if (targetNode.asText().length() > MAX_TARGET) {
            throw new ActionRejectedException("target", "at most " + MAX_TARGET + " characters");
        }
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode paramsNode = body.get("params");
        if (paramsNode != null && !paramsNode.isNull()) {
            if (!paramsNode.isObject()) {
                throw new ActionRejectedException("params", "must be an object");
            }
            if (paramsNode.size() > MAX_PARAMS) {
                throw new ActionRejectedException("params", "at most " + MAX_PARAMS + " parameters");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = paramsNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (!v.isValueNode() || v.isNull()) {
                    throw new ActionRejectedException(
                            "params." + cut(e.getKey()), "must be a string, number or boolean");
                }
                if (v.asText().length() > MAX_VALUE) {
                    throw new ActionRejectedException(
                            "params." + cut(e.getKey()), "at most " + MAX_VALUE + " characters");
                }
                params.put(e.getKey(), v.asText());
            }
        }
        JsonNode reasonNode = body.get("reason");
        if (reasonNode != null && !reasonNode.isNull() && !reasonNode.isTextual()) {
            throw new ActionRejectedException("reason", "must be a string");
        }
        JsonNode dryNode = body.get("dryRun");
        if (dryNode != null && !dryNode.isNull() && !dryNode.isBoolean()) {
            throw new ActionRejectedException("dryRun", "must be true or false");
        }
        String reason = reasonNode == null || reasonNode.isNull() ? "" : reasonNode.asText();
        return new ParsedRequest(
                new ActionRequest(kind, targetNode.asText(), params, reason), dryNode != null && dryNode.asBoolean());
    }

    private static String kinds() {
        return Arrays.stream(ActionKind.values()).map(ActionKind::wire).collect(Collectors.joining(", "));
    }

    private static String cut(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
