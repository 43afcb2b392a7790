package io.lifeline.api.alert;

import io.lifeline.alert.AlertService;
import io.lifeline.alert.SilenceNotFoundException;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.security.CurrentCaller;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Silences ({@code /api/v1/silences}): listing needs a viewer, creating and expiring an operator (see AccessRules).
 * A silence mutes delivery of the alerts it matches; the alerts themselves keep their state.
 */
@Path("/api/v1/silences")
@Produces(MediaType.APPLICATION_JSON)
public class SilencesResource {

    private final AlertService silences;
    private final CurrentCaller caller;
    private final Clock clock;

    SilencesResource(AlertService silences, CurrentCaller caller, Clock clock) {
        this.silences = silences;
        this.caller = caller;
        this.clock = clock;
    }

    /**
     * A matcher as sent and shown.
     *
     * @param name   label name
     * @param value  value, or regular expression for {@code =~} and {@code !~}
     * @param type   {@code =} (default), {@code !=}, {@code =~} or {@code !~}
     */
    public record MatcherBody(String name, String value, String type) {}

    /**
     * What to silence.
     *
     * @param matchers  all must match an alert's labels (at least one)
     * @param startsAt  when it starts (default: now)
     * @param endsAt    when it ends; or
     * @param duration  how long it lasts (ISO-8601, e.g. {@code PT2H}); one of the two is required, at most 90 days
     * @param comment   why (required)
     */
    public record CreateSilence(
            List<MatcherBody> matchers, Instant startsAt, Instant endsAt, Duration duration, String comment) {}

    /**
     * A silence as listed.
     *
     * @param status  {@code active}, {@code pending} (not started) or {@code expired}
     */
    public record SilenceView(
            String id,
            List<MatcherBody> matchers,
            Instant startsAt,
            Instant endsAt,
            String createdBy,
            String comment,
            String status) {}

    /** The answer to a listing. */
    public record SilenceList(List<SilenceView> silences) {}

    @GET
    public SilenceList list(@QueryParam("expired") Boolean expired) {
        Instant now = clock.instant();
        return new SilenceList(silences.list(caller.get(), Boolean.TRUE.equals(expired)).stream()
                .map(s -> view(s, now))
                .toList());
    }

    @GET
    @Path("{id}")
    public SilenceView get(@PathParam("id") String id) {
        return view(
                silences.find(caller.get(), id).orElseThrow(() -> new SilenceNotFoundException(id)), clock.instant());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(CreateSilence req) {
        if (req == null) {
            throw new IllegalArgumentException(
                    "body: required, e.g. {\"matchers\":[{\"name\":\"job\",\"value\":\"ml/a\"}],"
                            + "\"duration\":\"PT2H\",\"comment\":\"storage outage\"}");
        }
        List<Matcher> matchers = new ArrayList<>();
        for (MatcherBody m : req.matchers() == null ? List.<MatcherBody>of() : req.matchers()) {
            if (m == null) {
                throw new IllegalArgumentException("matchers: null entry");
            }
            matchers.add(
                    new Matcher(m.name(), m.value(), m.type() == null ? Matcher.Type.EQUAL : matcherType(m.type())));
        }
        Silence s = silences.create(
                caller.get(), matchers, req.startsAt(), req.endsAt(), req.duration(), req.comment(), "API");
        return Response.created(URI.create("/api/v1/silences/" + s.id()))
                .entity(view(s, clock.instant()))
                .build();
    }

    /** Expires a silence now; expiring an expired silence changes nothing. */
    @DELETE
    @Path("{id}")
    public SilenceView expire(@PathParam("id") String id) {
        return view(silences.expire(caller.get(), id), clock.instant());
    }

    private static Matcher.Type matcherType(String op) {
        for (Matcher.Type t : Matcher.Type.values()) {
            if (t.operator().equals(op.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("matchers: type must be one of =, !=, =~, !~, got '" + op + "'");
    }

    private static SilenceView view(Silence s, Instant now) {
        String status = s.expiredAt(now) ? "expired" : s.activeAt(now) ? "active" : "pending";
        return new SilenceView(
                s.id(),
                s.matchers().stream()
                        .map(m -> new MatcherBody(m.name(), m.value(), m.type().operator()))
                        .toList(),
                s.startsAt(),
                s.endsAt(),
                s.createdBy(),
                s.comment(),
                status);
    }
}
