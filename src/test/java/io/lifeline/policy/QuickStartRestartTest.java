package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.view.ActionView;
import io.lifeline.alert.AlertsForTests;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.testing.MigratedPostgres;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The quick start stopped and started again twice over the same database, as a user does: each start rebuilds the
 * model from the stored history and the demo fleet continues its journaled run. Nothing of the fleet happens twice (no
 * node registers again, no interruption is replayed), its jobs go on from their steps, every interruption Lifeline
 * counts is one the fleet had, so no lemon node and no restart loop appears that the fleet did not earn, and the
 * co-location windows still lose no work.
 */
class QuickStartRestartTest {

    /** How long each session runs, and how long the quick start is stopped before the next. */
    private static final int SESSION_MINUTES = 8;

    private static final List<Duration> STOPPED = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5));
    /** What the fleet's own events explain; a restart that replayed or lost events would show others. */
    private static final Set<IncidentCause> REAL = EnumSet.of(
            IncidentCause.SPOT_RECLAIM, IncidentCause.GPU_FAULT, IncidentCause.NODE_FAILURE, IncidentCause.MANUAL);

    @Test
    void twoRestartsContinueTheDemoWithNoInterruptionReplayedAndNoFalseAlert() throws Exception {
        List<Event> history = new ArrayList<>();
        List<String> fired = new ArrayList<>();
        List<Integer> sessionStarts = new ArrayList<>();
        Map<String, Long> lastSteps = new HashMap<>();
        List<String> wentBack = new ArrayList<>();
        List<ColocationLedger.Rescale> lendings = new ArrayList<>();
        List<IncidentView> incidents = new ArrayList<>();
        Instant at = QuickStartRig.START;
        try (MigratedPostgres db = MigratedPostgres.start("quick-start-restarts")) {
            AlertsForTests alerts = new AlertsForTests();
            for (int session = 0; session <= STOPPED.size(); session++) {
                try (QuickStartRig rig = new QuickStartRig(db, at, true)) {
                    if (!history.isEmpty()) {
                        rig.apply(history); // the stored history, read back at start
                    }
                    rig.start();
                    rig.demoWindow();
                    assertThat(rig.demo.runStart()).isEqualTo(QuickStartRig.START);
                    sessionStarts.add(history.size());
                    for (int minute = 0; minute < SESSION_MINUTES; minute++) {
                        rig.advance(60);
                        Instant now = rig.clock.instant();
                        ModelSnapshot snapshot = rig.read(m -> ModelSnapshot.take(m, ModelSnapshot.EMPTY, now, 0));
                        for (Alert a : alerts.evaluate(snapshot, List.of(), now)) {
                            if (a.state() == AlertState.FIRING
                                    && (a.rule() == AlertRule.LEMON_NODE || a.rule() == AlertRule.RESTART_LOOP)) {
                                fired.add("session " + session + " minute " + minute + ": "
                                        + a.rule().alertName() + " " + a.labels());
                            }
                        }
                    }
                    for (Event e : rig.delivered) {
                        if (e.data() instanceof TrainerData.Progress p) {
                            Long before = lastSteps.put(e.subject(), p.step());
                            // A job goes back only by a restore (after an interruption), never by a restart of the
                            // demo.
                            if (before != null && p.step() < before && !restoredBetween(rig.delivered, history, e)) {
                                wentBack.add(e.subject() + " from " + before + " to " + p.step() + " at " + e.time());
                            }
                        }
                    }
                    history.addAll(rig.delivered);
                    for (ActionView a : rig.policyActions()) {
                        if (a.requestedBy().equals(PolicyName.COLOCATION.requester())
                                && a.state() == ActionState.SUCCEEDED) {
                            ColocationService.rescalesOf(a).stream()
                                    .filter(r -> !lendings.contains(r))
                                    .forEach(lendings::add);
                        }
                    }
                    if (session == STOPPED.size()) {
                        for (JobDetail d : rig.read(m -> m.jobs().details())) {
                            incidents.addAll(
                                    rig.read(m -> m.jobs().incidents(d.summary().name()))
                                            .orElseThrow());
                        }
                    }
                    at = rig.clock.instant().plus(session < STOPPED.size() ? STOPPED.get(session) : Duration.ZERO);
                }
            }
        }

        // Nothing of the fleet happened twice.
        for (EventType once : List.of(
                EventType.NODE_REGISTERED,
                EventType.NODE_INTERRUPTION_NOTICE,
                EventType.NODE_TERMINATED,
                EventType.JOB_SUBMITTED,
                EventType.WORKLOAD_ADMITTED)) {
            List<String> subjects = history.stream()
                    .filter(e -> e.type() == once)
                    .map(Event::subject)
                    .toList();
            assertThat(new LinkedHashSet<>(subjects)).as(once.wireName()).hasSameSizeAs(subjects);
        }
        Set<String> ids = new HashSet<>();
        assertThat(history)
                .allSatisfy(
                        e -> assertThat(ids.add(e.id())).as("%s twice", e.id()).isTrue());
        // The later sessions took up where the earlier ones stopped: no submission, no first round, no step lost.
        assertThat(history.subList(sessionStarts.get(1), history.size()))
                .noneSatisfy(e -> assertThat(e.type()).isIn(EventType.JOB_SUBMITTED, EventType.WORKLOAD_ADMITTED));
        assertThat(history.subList(sessionStarts.get(1), history.size()))
                .filteredOn(e -> e.data() instanceof TrainerData.Rendezvous r && r.round() == 0)
                .isEmpty();
        assertThat(wentBack).as("jobs set back without a restore").isEmpty();
        // Every interruption Lifeline counts is one the fleet had (a node reclaimed, a GPU fault, an eviction), so the
        // reliability figures and the alerts built on them are the fleet's: no lemon node, and a restart loop only
        // where the fleet's own interruptions add up to one.
        incidents.forEach(i -> System.out.println(
                "incident " + i.id() + " " + i.cause() + " on " + i.originNode() + ": " + i.causeDetail()));
        assertThat(incidents)
                .filteredOn(IncidentView::interrupted)
                .allSatisfy(i -> assertThat(i.cause())
                        .as("%s: %s", i.id(), i.causeDetail())
                        .isIn(REAL));
        fired.forEach(f -> System.out.println("fired: " + f));
        assertThat(fired).noneSatisfy(f -> assertThat(f).contains("LemonNode"));
        // And the co-location windows of all three sessions lost no work.
        assertThat(lendings)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.reworkGpuHours()).as("%s", r).isZero());
    }

    /** Whether the job restored from a checkpoint between its previous progress report and {@code e}. */
    @SuppressWarnings("ReferenceEquality") // the same event, not an equal one
    private static boolean restoredBetween(List<Event> session, List<Event> history, Event e) {
        List<Event> all = new ArrayList<>(history);
        all.addAll(session);
        Instant previous = null;
        for (Event x : all) {
            if (x == e) {
                break;
            }
            if (x.subject().equals(e.subject()) && x.data() instanceof TrainerData.Progress) {
                previous = x.time();
            }
        }
        Instant from = previous;
        return all.stream()
                .anyMatch(x -> x.subject().equals(e.subject())
                        && x.type() == EventType.TRAINER_RESTORED
                        && (from == null || x.time().isAfter(from))
                        && !x.time().isAfter(e.time()));
    }
}
