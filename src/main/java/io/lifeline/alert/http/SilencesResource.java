package io.lifeline.alert.http;

import io.lifeline.alert.AlertStore;
import io.lifeline.alert.AlertsConfig;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.security.CurrentCaller;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Silences ({@code /api/v1/silences}): listing needs a viewer, creating and expiring an operator (see AccessRules).
 * A silence mutes delivery of the alerts it matches; the alerts themselves keep their state.
 */
@Path("/api/v1/silences")
@Produces(MediaType.APPLICATION_JSON)
public class SilencesResource {

    private static final Logger LOG = Logger.getLogger(SilencesResource.class);
    private static final Duration LONGEST = Duration.ofDays(90);

    private final AlertStore store;
    private final CurrentCaller caller;
    private final AlertsConfig config;
    private final Clock clock;

    SilencesResource(AlertStore store, CurrentCaller caller, AlertsConfig config, Clock clock) {
        this.store = store;
        this.caller = caller;
        this.config = config;
        this.clock = clock;
    }

    /**
     * A matcher as sent and shown.
     *
     * @param name   label name
     * @param value  value, or regular expression for {@code =~} and {@code !~}
     * @param type   {@code =} (default), {@code !=}, {@code =~} or {@code !~}
     */
    public record MatcherBody(String name, String value, String type) {
    }

    /**
     * What to silence.
     *
     * @param matchers  all must match an alert's labels (at least one)
     * @param startsAt  when it starts (default: now)
     * @param endsAt    when it ends; or
     * @param duration  how long it lasts (ISO-8601, e.g. {@code PT2H}); one of the two is required, at most 90 days
     * @param comment   why (required)
     */
    public record CreateSilence(List<MatcherBody> matchers, Instant startsAt, Instant endsAt, Duration duration,
                                String comment) {
    }

    /**
     * A silence as listed.
     *
     * @param status  {@code active}, {@code pending} (not started) or {@code expired}
     */
    public record SilenceView(String id, List<MatcherBody> matchers, Instant startsAt, Instant endsAt, String createdBy,
                              String comment, String status) {
    }

    /** The answer to a listing. */
    public record SilenceList(List<SilenceView> silences) {
    }

    @GET
    public SilenceList list(@QueryParam("expired") Boolean expired) {
        Instant now = clock.instant();
        try {
            List<SilenceView> out = new ArrayList<>();
            for (Silence s : store.silences(now, Boolean.TRUE.equals(expired), 10_000)) {
                out.add(view(s, now));
            }
            return new SilenceList(out);
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    @GET
    @Path("{id}")
    public SilenceView get(@PathParam("id") String id) {
        try {
            return view(store.findSilence(id).orElseThrow(() -> notFound(id)), clock.instant());
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(CreateSilence req) {
        if (req == null) {
            throw new IllegalArgumentException("body: required, e.g. {\"matchers\":[{\"name\":\"job\",\"value\":\"ml/a\"}],"
                    + "\"duration\":\"PT2H\",\"comment\":\"storage outage\"}");
        }
        if (req.comment() == null || req.comment().isBlank()) {
            throw new IllegalArgumentException("comment: required (say why the alerts are muted)");
        }
        if ((req.endsAt() == null) == (req.duration() == null)) {
            throw new IllegalArgumentException("endsAt, duration: give one or the other");
        }
        Instant now = clock.instant();
        Instant start = req.startsAt() == null ? now : req.startsAt();
        Instant end = req.endsAt() != null ? req.endsAt() : start.plus(req.duration());
        if (!end.isAfter(now)) {
            throw new IllegalArgumentException("endsAt: must be in the future");
        }
        if (Duration.between(start, end).compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("endsAt: a silence lasts at most 90 days");
        }
        List<Matcher> matchers = new ArrayList<>();
        for (MatcherBody m : req.matchers() == null ? List.<MatcherBody>of() : req.matchers()) {
            if (m == null) {
                throw new IllegalArgumentException("matchers: null entry");
            }
            matchers.add(new Matcher(m.name(), m.value(), m.type() == null ? Matcher.Type.EQUAL : matcherType(m.type())));
        }
        Silence s = new Silence(UUID.randomUUID().toString(), matchers, start, end, caller.get().actor(),
                req.comment().trim());
        try {
            if (store.silences(now, false, config.maxSilences() + 1).size() >= config.maxSilences()) {
                throw new WebApplicationException("too many silences: at most " + config.maxSilences()
                        + " may be active or pending; expire some first", 409);
            }
            store.insertSilence(s, now);
        } catch (SQLException e) {
            throw unavailable(e);
        }
        LOG.infof("Silence %s created by %s: %s until %s (%s)", s.id(), s.createdBy(), s.matchers(), s.endsAt(),
                s.comment());
        return Response.created(URI.create("/api/v1/silences/" + s.id())).entity(view(s, now)).build();
    }

    /** Expires a silence now; expiring an expired silence changes nothing. */
    @DELETE
    @Path("{id}")
    public SilenceView expire(@PathParam("id") String id) {
        Instant now = clock.instant();
        try {
            Silence s = store.expireSilence(id, now, caller.get().actor()).orElseThrow(() -> notFound(id));
            LOG.infof("Silence %s expired by %s", id, caller.get().actor());
            return view(s, now);
        } catch (SQLException e) {
            throw unavailable(e);
        }
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
        return new SilenceView(s.id(), s.matchers().stream()
                .map(m -> new MatcherBody(m.name(), m.value(), m.type().operator())).toList(), s.startsAt(), s.endsAt(),
                s.createdBy(), s.comment(), status);
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException("no silence with id '" + id + "'");
    }

    static WebApplicationException unavailable(SQLException e) {
        LOG.warnf("Alert store unavailable: %s", e.getMessage());
        return new WebApplicationException("the alert store is unavailable; retry later", 503);
    }
}
