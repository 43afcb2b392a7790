package io.lifeline.api.alert;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lifeline.alert.AlertService;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Silence;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Alerts ({@code GET /api/v1/alerts}, viewer): pending, firing and recently resolved, with the silences muting them.
 * A reader limited to namespaces gets the alerts of its namespaces and of the nodes hosting its jobs.
 */
@Path("/api/v1/alerts")
@Produces(MediaType.APPLICATION_JSON)
public class AlertsResource {

    private static final int MAX_LIMIT = 5000;

    private final AlertService alerts;
    private final Clock clock;
    private final Visibility visibility;

    AlertsResource(AlertService alerts, Clock clock, Visibility visibility) {
        this.alerts = alerts;
        this.clock = clock;
        this.visibility = visibility;
    }

    /**
     * One alert.
     *
     * @param fingerprint  identity (rule + labels)
     * @param rule         rule key, e.g. {@code checkpoint-stale}
     * @param alertname    the {@code alertname} label
     * @param state        pending, firing or resolved
     * @param severity     the {@code severity} label
     * @param namespace    the namespace it concerns, absent for fleet-wide and node alerts
     * @param labels       all labels
     * @param annotations  summary and description
     * @param activeSince  when its condition started to hold
     * @param startsAt     when it started firing
     * @param endsAt       when it resolved
     * @param updatedAt    the evaluation that last confirmed it
     * @param value        the measured value
     * @param silencedBy   ids of the silences muting it now
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AlertView(
            String fingerprint,
            String rule,
            String alertname,
            String state,
            String severity,
            String namespace,
            Map<String, String> labels,
            Map<String, String> annotations,
            Instant activeSince,
            Instant startsAt,
            Instant endsAt,
            Instant updatedAt,
            Double value,
            List<String> silencedBy) {}

    /** The answer: alerts, firing first. */
    public record AlertList(List<AlertView> alerts) {}

    @GET
    public AlertList list(
            @QueryParam("state") String state,
            @QueryParam("rule") String rule,
            @QueryParam("namespace") String namespace,
            @QueryParam("fingerprint") String fingerprint,
            @QueryParam("limit") Integer limit) {
        AlertState s = blank(state) ? null : AlertState.fromWire(state);
        if (s == AlertState.INACTIVE) {
            throw new IllegalArgumentException("state: inactive alerts are not kept; use pending, firing or resolved");
        }
        AlertRule r = blank(rule) ? null : AlertRule.parse(rule);
        int n = limit == null ? 1000 : limit;
        if (n < 1 || n > MAX_LIMIT) {
            throw new IllegalArgumentException("limit: must be between 1 and " + MAX_LIMIT + ", got " + n);
        }
        Instant now = clock.instant();
        List<Silence> silences = alerts.list(false);
        List<AlertView> out = new ArrayList<>();
        Scope scope = visibility.scope();
        for (Alert a :
                alerts.alerts(scope, visibility.nodesUsed(scope), s, r, blank(namespace) ? null : namespace, n)) {
            if (!blank(fingerprint) && !fingerprint.equals(a.fingerprint())) {
                continue;
            }
            out.add(new AlertView(
                    a.fingerprint(),
                    a.rule().key(),
                    a.rule().alertName(),
                    a.state().wire(),
                    a.labels().get("severity"),
                    a.namespace(),
                    a.labels(),
                    a.annotations(),
                    a.activeSince(),
                    a.firingSince(),
                    a.resolvedAt(),
                    a.updatedAt(),
                    a.value(),
                    AlertService.silencing(a, silences, now)));
        }
        return new AlertList(out);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
