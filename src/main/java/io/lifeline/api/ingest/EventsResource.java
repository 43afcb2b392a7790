package io.lifeline.api.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.lifeline.codec.DecodedBatch;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.codec.Refusal;
import io.lifeline.codec.Rfc3339;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import io.lifeline.eventlog.EventLogQuery;
import io.lifeline.eventlog.EventLogRepository;
import io.lifeline.eventlog.StoredEvent;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.ingest.TrainerPlacement;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.IngestScope;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.store.AgentClaims;
import io.lifeline.web.ProblemMappers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * HTTP ingest ({@code POST /api/v1/events}) and the event log ({@code GET /api/v1/events}). A reader limited to
 * namespaces gets the events of its jobs and of the nodes hosting their ranks now, filtered before paging.
 */
@Path("/api/v1/events")
public class EventsResource {

    static final String NDJSON = "application/x-ndjson";
    private static final int MAX_LIMIT = 1000;

    private final IngestPipeline pipeline;
    private final EventCodec codec;
    private final EventLogRepository log;
    private final Counter rejected;
    private final int maxBatch;
    private final CurrentCaller caller;
    private final Visibility visibility;
    private final AgentClaims claims;
    private final TrainerPlacement placement;

    EventsResource(
            IngestPipeline pipeline,
            EventCodec codec,
            EventLogRepository log,
            MeterRegistry registry,
            io.lifeline.config.IngestConfig config,
            CurrentCaller caller,
            Visibility visibility,
            AgentClaims claims,
            TrainerPlacement placement) {
        this.visibility = visibility;
        this.claims = claims;
        this.placement = placement;
        this.pipeline = pipeline;
        this.caller = caller;
        this.codec = codec;
        this.log = log;
        this.maxBatch = config.maxBatchEvents();
        this.rejected = Counter.builder("lifeline_ingest_rejected_events")
                .tag("transport", "http")
                .description("Events rejected as invalid")
                .register(registry);
    }

    /**
     * What became of a posted batch: the events accepted (stored, for lifecycle events), of them those the model
     * applied, and every event that was not, each with its reason.
     *
     * @param accepted    events new to Lifeline, taken
     * @param applied     of those, the events the model applied
     * @param duplicates  events already seen (same source and id)
     * @param rejected    invalid events, listed in {@code errors}
     * @param errors      one per invalid event: its index in the request, its id, the reason in words
     * @param notApplied  one per accepted event the model did not apply: its index in the request, its id, a stable
     *                    code ({@code stale}, {@code expired}, {@code node_terminated}, ...) and the detail
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record IngestResponse(
            int accepted, int applied, int duplicates, int rejected, List<Refusal> errors, List<Refusal> notApplied) {}

    @POST
    @Blocking
    @APIResponse(
            responseCode = "200",
            description =
                    "Events taken (stored, for lifecycle events) and applied to the "
                            + "model; the invalid ones in errors, those the model did not apply (stale, expired, ...) in notApplied",
            content = @Content(schema = @Schema(implementation = IngestResponse.class)))
    @Consumes({
        MediaType.APPLICATION_JSON,
        "application/cloudevents+json",
        "application/cloudevents-batch+json",
        NDJSON,
        "application/jsonl"
    })
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> post(
            @RequestBody(content = @Content(schema = @Schema(type = SchemaType.STRING, format = "binary")))
                    InputStream body,
            @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Content-Length") Long contentLength,
            @HeaderParam(AgentClaims.KEY_HEADER) String agentKey)
            throws IOException {
        boolean ndjson =
                contentType != null && (contentType.startsWith(NDJSON) || contentType.startsWith("application/jsonl"));
        DecodedBatch decoded = codec.decodeBody(read(body, contentLength), ndjson);
        if (decoded.total() > maxBatch) {
            throw new InvalidEventException(
                    "batch of " + decoded.total() + " events is larger than the limit of " + maxBatch + "; split it");
        }
        // A token limited to namespaces sends only its own jobs' events, places them only where the cluster runs them,
        // and answers their commands only as their claiming agent: the others are refused one by one.
        Caller c = caller.get();
        List<Event> kept = new ArrayList<>(decoded.events().size());
        List<Integer> positions = new ArrayList<>(decoded.events().size());
        List<Refusal> outOfScope = new ArrayList<>();
        Map<String, String> acks = acknowledgements(decoded.events(), c, agentKey);
        for (int i = 0; i < decoded.events().size(); i++) {
            Event e = decoded.events().get(i);
            String refusal = e.type().internal()
                    ? "type " + e.type().wireName() + " is written by Lifeline itself and not accepted from producers"
                    : IngestScope.refusal(c, e);
            if (refusal == null && e.type() == EventType.TRAINER_COMMAND_ACK) {
                refusal = acks.get(e.subject());
            }
            if (refusal == null) {
                refusal = placement.refusal(c, e);
            }
            if (refusal == null) {
                kept.add(e);
                positions.add(decoded.positions().get(i));
            } else {
                outOfScope.add(new Refusal(decoded.positions().get(i), e.id(), refusal));
            }
        }
        if (kept.isEmpty()) {
            return CompletableFuture.completedFuture(
                    answer(decoded, positions, outOfScope, new IngestReceipt(0, 0), IngestReceipt.Applied.all(0)));
        }
        // The answer waits for the model (its thread hands each event's outcome over), never for a read of the store.
        return pipeline.submit(kept)
                .thenCompose(receipt -> receipt.applied()
                        .thenApply(applied -> answer(decoded, positions, outOfScope, receipt, applied)));
    }

    /**
     * Why each job's {@code trainer.command_ack} events of this request are refused (job → reason; jobs whose agent
     * sent them absent): an answer to a job's commands comes from the agent that claimed them ({@link AgentClaims}),
     * so here it needs that agent's key; a token over the namespace is not enough. One query for the whole request,
     * none without acknowledgements. Each refusal is written to the security audit.
     */
    private Map<String, String> acknowledgements(List<Event> events, Caller c, String agentKey) {
        Set<String> jobs = new TreeSet<>();
        for (Event e : events) {
            if (e.type() == EventType.TRAINER_COMMAND_ACK && IngestScope.refusal(c, e) == null) {
                jobs.add(e.subject());
            }
        }
        if (jobs.isEmpty()) {
            return Map.of();
        }
        String digest;
        try {
            digest = agentKey == null || agentKey.isBlank() ? null : AgentClaims.digest(agentKey);
        } catch (IllegalArgumentException bad) {
            digest = null;
        }
        Map<String, String> holders = claims.holders(jobs);
        Map<String, String> refused = new HashMap<>();
        for (String job : jobs) {
            if (digest != null && digest.equals(holders.get(job))) {
                continue;
            }
            String why = "trainer.command_ack: the commands of " + job + " are answered by the agent that claimed them "
                    + "(POST /api/v1/agents/" + job + "/commands/{id}/ack, or here with that agent's "
                    + AgentClaims.KEY_HEADER + "); "
                    + (digest == null
                            ? "this request has no agent key"
                            : holders.containsKey(job)
                                    ? "this key does not hold the claim"
                                    : "no agent has claimed them");
            claims.refused("agent.ack_refused", c, job, why);
            refused.put(job, why);
        }
        return refused;
    }

    /**
     * The body in one array of its declared length (the HTTP layer has checked it against the size limit): read as a
     * byte[] parameter it was gathered in chunks and copied, most of what ingest allocated per event.
     */
    private static byte[] read(InputStream body, Long contentLength) throws IOException {
        if (contentLength == null || contentLength < 0 || contentLength > Integer.MAX_VALUE) {
            return body.readAllBytes();
        }
        byte[] bytes = new byte[contentLength.intValue()];
        int n = body.readNBytes(bytes, 0, bytes.length);
        return n == bytes.length ? bytes : Arrays.copyOf(bytes, n);
    }

    /**
     * The answer to a batch: accepted, applied and duplicates, every event refused by the codec, the caller's scope or
     * the gateway, and every accepted event the model did not apply. Nothing kept and every event refused for its
     * scope: 403; nothing kept otherwise: 400.
     */
    private Response answer(
            DecodedBatch decoded,
            List<Integer> positions,
            List<Refusal> outOfScope,
            IngestReceipt receipt,
            IngestReceipt.Applied applied) {
        List<Refusal> errors = new ArrayList<>(decoded.rejections());
        errors.addAll(outOfScope);
        for (Refusal r : receipt.rejected()) {
            errors.add(r.at(positions.get(r.index())));
        }
        errors.sort((a, b) -> Integer.compare(a.index(), b.index()));
        if (!errors.isEmpty()) {
            rejected.increment(errors.size());
        }
        if (receipt.accepted() + receipt.duplicates() == 0 && !errors.isEmpty()) {
            String detail =
                    errors.size() == 1 ? errors.get(0).reason() : "all " + errors.size() + " events were rejected";
            if (outOfScope.size() == errors.size()) {
                return ProblemMappers.problem(403, "forbidden", "Forbidden", detail, errors);
            }
            return ProblemMappers.problem(400, "invalid-event", "Invalid event", detail, errors);
        }
        List<Refusal> notApplied = new ArrayList<>(applied.notApplied().size());
        for (Refusal n : applied.notApplied()) {
            notApplied.add(n.at(positions.get(n.index())));
        }
        return Response.ok(new IngestResponse(
                        receipt.accepted(), applied.applied(), receipt.duplicates(), errors.size(), errors, notApplied))
                .build();
    }

    /** An event as stored in the log. */
    public record EventView(
            long seq,
            String specversion,
            String id,
            String source,
            String type,
            String subject,
            Instant time,
            Instant receivedAt,
            @JsonRawValue String data) {}

    /**
     * One page of the event log as answered: a {@link Page} whose items are named {@code events}, as they were before
     * every list shared the page type, and whose {@code nextCursor} is absent on the last page.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EventPage(List<EventView> events, String nextCursor) {

        static EventPage of(Page<EventView> page) {
            return new EventPage(page.items(), page.nextCursor());
        }
    }

    @GET
    @Blocking
    @Produces(MediaType.APPLICATION_JSON)
    public EventPage list(
            @QueryParam("subject") String subject,
            @QueryParam("type") String type,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor,
            @QueryParam("order") String order) {
        if (type != null && EventType.fromWireName(type) == null) {
            throw new InvalidEventException("type: unknown type '" + type + "'");
        }
        int n = limit == null ? 100 : limit;
        if (n < 1 || n > MAX_LIMIT) {
            throw new InvalidEventException("limit: must be between 1 and " + MAX_LIMIT + ", got " + n);
        }
        boolean desc;
        if (order == null || order.equals("asc")) {
            desc = false;
        } else if (order.equals("desc")) {
            desc = true;
        } else {
            throw new InvalidEventException("order: must be asc or desc, got '" + order + "'");
        }
        Scope scope = visibility.scope();
        Set<String> namespaces = scope.isEverything() ? null : scope.namespaces();
        Set<String> nodes = visibility.nodesUsed(scope);
        EventLogQuery q = new EventLogQuery(
                blankToNull(subject),
                type,
                instant("from", from),
                instant("to", to),
                n,
                desc,
                decodeCursor(cursor),
                namespaces,
                nodes);
        List<StoredEvent> rows = log.page(q);
        boolean more = rows.size() > n;
        List<StoredEvent> page = more ? rows.subList(0, n) : rows;
        List<EventView> views = page.stream()
                .map(s -> new EventView(
                        s.seq, "1.0", s.eventId, s.source, s.type, s.subject, s.time, s.receivedAt, s.data))
                .toList();
        String next = more ? encodeCursor(page.get(page.size() - 1)) : null;
        return EventPage.of(new Page<>(views, next));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Instant instant(String name, String value) {
        return Rfc3339.parse(name, value);
    }

    /** The position after {@code last}: its time (to the nanosecond, as stored) and its sequence. */
    static String encodeCursor(StoredEvent last) {
        return Cursor.of(last.time, last.seq);
    }

    static EventLogQuery.Cursor decodeCursor(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            List<String> key = Cursor.parts(cursor, 2);
            return new EventLogQuery.Cursor(Instant.parse(key.get(0)), Long.parseLong(key.get(1)));
        } catch (RuntimeException e) {
            throw new InvalidEventException("cursor: not a cursor returned by this API");
        }
    }
}
