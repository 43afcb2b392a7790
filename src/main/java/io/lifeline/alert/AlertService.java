package io.lifeline.alert;

import io.lifeline.alert.store.AlertStore;
import io.lifeline.alert.store.SilenceStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.security.Scope;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Alerts and silences as the REST API and the dashboard read and change them: one place for the listing and for the
 * rules of silences: who may create and expire them (operators; one limited to namespaces only silences confined to
 * them, see {@link #inScope}), what a
 * valid one is (at least one matcher, a comment, an end in the future, at most 90 days), how many may be active or
 * pending at once. Errors are typed: {@link IllegalArgumentException} for an invalid request,
 * {@link AccessDeniedException}, {@link SilenceNotFoundException}, {@link TooManySilencesException} and
 * {@link StoreUnavailableException}. Calls wait on PostgreSQL: never call them from a UI or event-loop thread.
 */
@ApplicationScoped
public class AlertService {

    private static final Logger LOG = Logger.getLogger(AlertService.class);
    /** The longest a silence may last. */
    public static final Duration LONGEST = Duration.ofDays(90);

    private static final int LIST_LIMIT = 10_000;
    private static final String NAMESPACE_LABEL = "namespace";

    private final AlertStore store;
    private final SilenceStore silences;
    private final AlertsConfig config;
    private final Clock clock;

    AlertService(AlertStore store, SilenceStore silences, AlertsConfig config, Clock clock) {
        this.store = store;
        this.silences = silences;
        this.config = config;
        this.clock = clock;
    }

    /** Alerts in {@code state} (null: any) of {@code rule} (null: any) in {@code namespace} (null: any), firing first. */
    public List<Alert> alerts(AlertState state, AlertRule rule, String namespace, int limit) {
        try {
            return store.listAlerts(state, rule, namespace, limit);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    /**
     * Alerts as {@link #alerts(AlertState, AlertRule, String, int)} that {@code scope} may see, filtered before the
     * limit: those of its namespaces, and the node alerts of {@code nodes} (the nodes hosting its jobs; null: every
     * node, for a fleet-wide scope).
     */
    public List<Alert> alerts(
            Scope scope, Set<String> nodes, AlertState state, AlertRule rule, String namespace, int limit) {
        if (scope.isEverything()) {
            return alerts(state, rule, namespace, limit);
        }
        try {
            return store.listAlerts(state, rule, namespace, scope.namespaces(), nodes, limit);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    /** The ids of the silences in {@code silences} that mute {@code alert} at {@code now}. */
    public static List<String> silencing(Alert alert, List<Silence> silences, Instant now) {
        List<String> by = new java.util.ArrayList<>();
        for (Silence s : silences) {
            if (s.activeAt(now) && s.matches(alert.labels())) {
                by.add(s.id());
            }
        }
        return List.copyOf(by);
    }

    /**
     * Whether {@code caller} may see and expire {@code s}: a fleet-wide caller every silence, a caller limited to
     * namespaces those confined to one of them (an equality matcher on the {@code namespace} label with a value in
     * its scope: such a silence can mute nothing outside that namespace).
     */
    public static boolean inScope(Caller caller, Silence s) {
        if (caller != null && caller.isFleetWide()) {
            return true;
        }
        if (caller == null || !caller.isAuthenticated()) {
            return false;
        }
        for (Matcher m : s.matchers()) {
            if (m.type() == Matcher.Type.EQUAL
                    && NAMESPACE_LABEL.equals(m.name())
                    && caller.namespaces().contains(m.value())) {
                return true;
            }
        }
        return false;
    }

    /** The silences {@code caller} may see ({@link #inScope}): active and pending, with {@code includeExpired} all. */
    public List<Silence> list(Caller caller, boolean includeExpired) {
        List<Silence> all = list(includeExpired);
        return caller != null && caller.isFleetWide()
                ? all
                : all.stream().filter(s -> inScope(caller, s)).toList();
    }

    /** The silence with this id if {@code caller} may see it ({@link #inScope}). */
    public Optional<Silence> find(Caller caller, String id) {
        return find(id).filter(s -> inScope(caller, s));
    }

    /** Active and pending silences, and with {@code includeExpired} the expired ones too (whatever their scope). */
    public List<Silence> list(boolean includeExpired) {
        try {
            return silences.list(clock.instant(), includeExpired, LIST_LIMIT);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    public Optional<Silence> find(String id) {
        try {
            return silences.find(id);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    /**
     * Creates a silence.
     *
     * @param startsAt when it starts, null for now
     * @param endsAt   when it ends; or
     * @param duration how long it lasts from its start: exactly one of the two
     * @param comment  why (required)
     * @param origin   where it was made, for the log ("API", "dashboard")
     */
    public Silence create(
            Caller caller,
            List<Matcher> matchers,
            Instant startsAt,
            Instant endsAt,
            Duration duration,
            String comment,
            String origin) {
        requireOperator(caller);
        if (comment == null || comment.isBlank()) {
            throw new IllegalArgumentException("comment: required (say why the alerts are muted)");
        }
        if ((endsAt == null) == (duration == null)) {
            throw new IllegalArgumentException("endsAt, duration: give one or the other");
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException("duration: must be positive");
        }
        if (matchers == null || matchers.isEmpty()) {
            throw new IllegalArgumentException("matchers: at least one (choose a label to match)");
        }
        Instant now = clock.instant();
        Instant start = startsAt == null ? now : startsAt;
        Instant end = endsAt != null ? endsAt : start.plus(duration);
        if (!end.isAfter(now)) {
            throw new IllegalArgumentException("endsAt: must be in the future");
        }
        if (Duration.between(start, end).compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("endsAt: a silence lasts at most 90 days");
        }
        Silence s = new Silence(UUID.randomUUID().toString(), matchers, start, end, caller.actor(), comment.trim());
        if (!inScope(caller, s)) {
            throw new AccessDeniedException("matchers: '" + caller.name() + "' is limited to namespaces "
                    + caller.namespaces() + ": a silence needs an equality matcher namespace=<one of them>, so that it "
                    + "mutes nothing outside them");
        }
        try {
            if (silences.list(now, false, config.maxSilences() + 1).size() >= config.maxSilences()) {
                throw new TooManySilencesException(config.maxSilences());
            }
            silences.insert(s, now);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
        LOG.infof(
                "Silence %s created by %s (%s): %s until %s (%s)",
                s.id(), s.createdBy(), origin, s.matchers(), s.endsAt(), s.comment());
        return s;
    }

    /** Expires a silence now; expiring an expired silence changes nothing. */
    public Silence expire(Caller caller, String id) {
        requireOperator(caller);
        if (!caller.isFleetWide() && find(caller, id).isEmpty()) {
            // Out of scope answers as unknown: a team does not learn of another team's silences.
            throw new SilenceNotFoundException(id);
        }
        try {
            Silence s = silences.expire(id, clock.instant(), caller.actor())
                    .orElseThrow(() -> new SilenceNotFoundException(id));
            LOG.infof("Silence %s expired by %s", id, caller.actor());
            return s;
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    private static void requireOperator(Caller caller) {
        if (caller == null || !caller.has(Role.OPERATOR)) {
            throw new AccessDeniedException("only operators may create or expire silences");
        }
    }

    private static StoreUnavailableException unavailable(StoreUnavailableException e) {
        LOG.warnf(
                "Alert store unavailable: %s",
                e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
        return e;
    }
}
