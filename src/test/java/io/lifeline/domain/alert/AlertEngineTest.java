package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.alert.AlertSnapshot.FailedAction;
import io.lifeline.domain.alert.AlertSnapshot.IngestFacts;
import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import io.lifeline.domain.alert.AlertSnapshot.NodeFacts;
import io.lifeline.domain.alert.AlertSnapshot.NoticeFacts;
import io.lifeline.domain.alert.AlertSnapshot.XidFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertEngineTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final long HOUR = 3_600_000L;

    private Instant now = T0;

    private static AlertSnapshot jobs(JobFacts... jobs) {
        return new AlertSnapshot(List.of(jobs), List.of(), List.of(), List.of(), List.of(), null);
    }

    /** A job whose checkpoint is {@code ageMinutes} old against a 60-minute objective. */
    private static JobFacts job(String name, long ageMinutes) {
        String ns = name.substring(0, name.indexOf('/'));
        return new JobFacts(name, ns, true, ageMinutes * 60_000, HOUR, List.of());
    }

    private AlertEngine engine() {
        return new AlertEngine(AlertRules.defaults(), 100, 10);
    }

    private Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        now = T0.plus(Duration.ofMinutes(minutes));
        return e.evaluate(s, List.of(), now);
    }

    @Test
    void inactiveToPendingWhenTheConditionStartsToHold() {
        AlertEngine e = engine();
        Evaluation ev = at(e, jobs(job("ml/a", 61)), 0);
        assertThat(ev.changes()).singleElement().satisfies(c -> {
            assertThat(c.from()).isEqualTo(AlertState.INACTIVE);
            assertThat(c.to()).isEqualTo(AlertState.PENDING);
            assertThat(c.alert().labels())
                    .containsEntry("alertname", "CheckpointFreshnessBreached")
                    .containsEntry("job", "ml/a")
                    .containsEntry("namespace", "ml")
                    .containsEntry("severity", "warning");
            assertThat(c.alert().firingSince()).isNull();
            assertThat(c.notifiable()).isFalse();
        });
    }

    @Test
    void pendingToFiringOnceTheForDurationHasPassed() {
        AlertEngine e = engine();
        at(e, jobs(job("ml/a", 61)), 0);
        assertThat(at(e, jobs(job("ml/a", 65)), 4).changes())
                .as("4 min < for 5m")
                .isEmpty();
        Evaluation ev = at(e, jobs(job("ml/a", 66)), 5);
        assertThat(ev.changes()).singleElement().satisfies(c -> {
            assertThat(c.from()).isEqualTo(AlertState.PENDING);
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
            assertThat(c.alert().activeSince()).isEqualTo(T0);
            assertThat(c.alert().firingSince()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
            assertThat(c.notifiable()).isTrue();
        });
    }

    @Test
    void pendingToInactiveWhenTheConditionStopsBeforeFiring() {
        AlertEngine e = engine();
        at(e, jobs(job("ml/a", 61)), 0);
        Evaluation ev = at(e, jobs(job("ml/a", 1)), 2);
        assertThat(ev.changes()).singleElement().satisfies(c -> {
            assertThat(c.from()).isEqualTo(AlertState.PENDING);
            assertThat(c.to()).isEqualTo(AlertState.INACTIVE);
            assertThat(c.notifiable()).isFalse();
        });
        assertThat(ev.alerts()).isEmpty();
    }

    @Test
    void firingToResolvedWhenTheConditionStops() {
        AlertEngine e = engine();
        at(e, jobs(job("ml/a", 61)), 0);
        at(e, jobs(job("ml/a", 70)), 10);
        Evaluation ev = at(e, jobs(job("ml/a", 2)), 12);
        assertThat(ev.changes()).singleElement().satisfies(c -> {
            assertThat(c.from()).isEqualTo(AlertState.FIRING);
            assertThat(c.to()).isEqualTo(AlertState.RESOLVED);
            assertThat(c.alert().resolvedAt()).isEqualTo(T0.plus(Duration.ofMinutes(12)));
            assertThat(c.notifiable()).isTrue();
        });
        assertThat(ev.alerts()).extracting(Alert::state).containsExactly(AlertState.RESOLVED);
    }

    @Test
    void resolvedToFiringWhenItComesBackWithoutForDuration() {
        AlertEngine e = engine();
        AlertSnapshot failing = new AlertSnapshot(
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(new FailedAction("a1", "drain", "n1", T0, "eviction refused")),
                null);
        AlertSnapshot none = new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), List.of(), null);
        assertThat(at(e, failing, 0).changes())
                .singleElement()
                .extracting(AlertChange::to)
                .isEqualTo(AlertState.FIRING);
        assertThat(at(e, none, 1).changes())
                .singleElement()
                .extracting(AlertChange::to)
                .isEqualTo(AlertState.RESOLVED);
        Evaluation again = at(e, failing, 2);
        assertThat(again.changes()).singleElement().satisfies(c -> {
            assertThat(c.from()).isEqualTo(AlertState.RESOLVED);
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
        });
        assertThat(again.alerts()).hasSize(1);
    }

    @Test
    void theSameConditionIsOneAlertAcrossEvaluationsAndWithinOne() {
        AlertEngine e = engine();
        at(e, jobs(job("ml/a", 61), job("ml/a", 62)), 0);
        for (int m = 1; m < 20; m++) {
            at(e, jobs(job("ml/a", 61 + m)), m);
        }
        assertThat(e.alerts()).hasSize(1);
        assertThat(e.alerts().get(0).state()).isEqualTo(AlertState.FIRING);
        assertThat(e.alerts().get(0).value()).isGreaterThan(1.3);
    }

    @Test
    void anAbsentSectionKeepsItsAlertsInsteadOfResolvingThem() {
        AlertEngine e = engine();
        AlertSnapshot failing = new AlertSnapshot(
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(new FailedAction("a1", "drain", "n1", T0, null)),
                null);
        at(e, failing, 0);
        Evaluation unknown = at(e, new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), null, null), 1);
        assertThat(unknown.changes()).isEmpty();
        assertThat(e.alerts()).extracting(Alert::state).containsExactly(AlertState.FIRING);
    }

    @Test
    void aNamespaceOverrideChangesThresholdSeverityAndCanDisable() {
        AlertRules rules = AlertRules.defaults()
                .withNamespace(
                        "research",
                        AlertRule.CHECKPOINT_STALE,
                        new RuleSettings.Override(null, 2.0, Duration.ZERO, null, Severity.INFO))
                .withNamespace("scratch", AlertRule.CHECKPOINT_STALE, RuleSettings.Override.disable());
        AlertEngine e = new AlertEngine(rules, 100, 10);
        Evaluation ev = e.evaluate(
                jobs(job("ml/a", 90), job("research/b", 90), job("research/c", 130), job("scratch/d", 500)),
                List.of(),
                T0);
        assertThat(ev.changes())
                .extracting(
                        c -> c.alert().labels().get("job"),
                        AlertChange::to,
                        c -> c.alert().labels().get("severity"))
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("ml/a", AlertState.PENDING, "warning"),
                        org.assertj.core.groups.Tuple.tuple("research/c", AlertState.FIRING, "info"));
    }

    @Test
    void aDisabledRuleResolvesWhatItFired() {
        AlertSnapshot s = jobs(job("ml/a", 61));
        AlertEngine first = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ZERO, null, null)),
                10,
                10);
        first.evaluate(s, List.of(), T0);
        AlertEngine restarted = new AlertEngine(
                AlertRules.defaults().with(AlertRule.CHECKPOINT_STALE, RuleSettings.Override.disable()), 10, 10);
        restarted.restore(first.alerts());
        assertThat(restarted.evaluate(s, List.of(), T0.plusSeconds(60)).changes())
                .singleElement()
                .extracting(AlertChange::to)
                .isEqualTo(AlertState.RESOLVED);
    }

    @Test
    void aSilencedFiringAlertIsNotNotifiedUntilTheSilenceEnds() {
        AlertEngine e = engine();
        AlertSnapshot s = jobs(job("ml/a", 61));
        Silence silence = new Silence(
                "s1",
                List.of(Matcher.equal("job", "ml/a")),
                T0,
                T0.plus(Duration.ofMinutes(30)),
                "alice",
                "known: storage outage");
        e.evaluate(s, List.of(silence), T0);
        Evaluation firing = e.evaluate(s, List.of(silence), T0.plus(Duration.ofMinutes(6)));
        assertThat(firing.changes()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
            assertThat(c.alert().silencedBy()).containsExactly("s1");
            assertThat(c.notifiable()).isFalse();
        });
        assertThat(AlertGroups.notifications(firing)).isEmpty();
        assertThat(e.evaluate(s, List.of(silence), T0.plus(Duration.ofMinutes(20)))
                        .changes())
                .isEmpty();
        Evaluation after = e.evaluate(s, List.of(silence), T0.plus(Duration.ofMinutes(31)));
        assertThat(after.changes()).singleElement().satisfies(c -> {
            assertThat(c.unsilenced()).isTrue();
            assertThat(c.notifiable()).isTrue();
        });
        assertThat(AlertGroups.notifications(after)).hasSize(1);
    }

    @Test
    void silenceMatchersFollowAlertmanagerSemantics() {
        Map<String, String> labels = Map.of("alertname", "GpuFatalXid", "node", "n17", "namespace", "ml");
        assertThat(new Matcher("node", "n1.*", Matcher.Type.REGEX).matches(labels))
                .isTrue();
        assertThat(new Matcher("node", "n1", Matcher.Type.REGEX).matches(labels))
                .as("anchored")
                .isFalse();
        assertThat(new Matcher("namespace", "ml", Matcher.Type.NOT_EQUAL).matches(labels))
                .isFalse();
        assertThat(new Matcher("team", "x", Matcher.Type.NOT_REGEX).matches(labels))
                .isTrue();
        assertThatThrownBy(() -> new Silence(
                        "s", List.of(new Matcher("job", ".*", Matcher.Type.REGEX)), T0, T0.plusSeconds(1), "a", "c"))
                .hasMessageContaining("empty value");
        assertThatThrownBy(() -> new Silence("s", List.of(Matcher.equal("job", "x")), T0, T0, "a", "c"))
                .hasMessageContaining("endsAt");
        Silence s = new Silence("s", List.of(Matcher.equal("node", "n17")), T0, T0.plusSeconds(600), "a", "c");
        assertThat(s.expire(T0.plusSeconds(60)).activeAt(T0.plusSeconds(61))).isFalse();
        assertThat(s.activeAt(T0.plusSeconds(61))).isTrue();
    }

    @Test
    void restartLoopCountsRestartsInsideTheWindowOnly() {
        AlertEngine e = engine();
        List<Instant> restarts = List.of(
                T0.minus(Duration.ofMinutes(90)), T0.minus(Duration.ofMinutes(40)), T0.minus(Duration.ofMinutes(20)));
        JobFacts two = new JobFacts("ml/a", "ml", true, 0L, HOUR, restarts);
        assertThat(e.evaluate(jobs(two), List.of(), T0).changes()).isEmpty();
        JobFacts three = new JobFacts(
                "ml/a", "ml", true, 0L, HOUR, List.of(restarts.get(1), restarts.get(2), T0.minusSeconds(5)));
        assertThat(e.evaluate(jobs(three), List.of(), T0).changes())
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.alert().rule()).isEqualTo(AlertRule.RESTART_LOOP);
                    assertThat(c.alert().labels()).containsEntry("severity", "critical");
                    assertThat(c.alert().value()).isEqualTo(3.0);
                });
    }

    @Test
    void aNoticeIsUnhandledOnlyWithoutACheckpointBetweenItAndTheNodeGoingAway() {
        Instant notice = T0.minusSeconds(300);
        Instant stopped = T0.minusSeconds(180);
        NoticeFacts handled =
                new NoticeFacts("ml/a", "ml", "n1", "ml/a#1", notice, null, stopped, List.of(T0.minusSeconds(250)));
        NoticeFacts unhandled = new NoticeFacts(
                "ml/b",
                "ml",
                "n2",
                "ml/b#1",
                notice,
                null,
                stopped,
                List.of(T0.minusSeconds(900), T0.minusSeconds(60)));
        NoticeFacts notYet = new NoticeFacts("ml/c", "ml", "n3", "ml/c#1", notice, T0.plusSeconds(60), null, List.of());
        NoticeFacts deadlinePassed =
                new NoticeFacts("ml/d", "ml", "n4", "ml/d#1", notice, T0.minusSeconds(1), null, List.of());
        AlertSnapshot s = new AlertSnapshot(
                List.of(), List.of(handled, unhandled, notYet, deadlinePassed), List.of(), List.of(), List.of(), null);
        assertThat(engine().evaluate(s, List.of(), T0).changes())
                .extracting(c -> c.alert().labels().get("job"))
                .containsExactlyInAnyOrder("ml/b", "ml/d");
    }

    @Test
    void fatalXidLemonNodeAndIngestRulesFire() {
        XidFacts fatal =
                new XidFacts("n17", 3, "GPU-abc", 79, T0.minusSeconds(30), true, "GPU has fallen off the bus", null);
        XidFacts benign = new XidFacts("n17", 2, "GPU-def", 13, T0.minusSeconds(30), false, null, null);
        XidFacts old = new XidFacts("n18", 0, "GPU-x", 79, T0.minus(Duration.ofHours(2)), true, null, null);
        NodeFacts lemon = new NodeFacts("n17", "spot-a", 4, Duration.ofDays(7));
        NodeFacts fine = new NodeFacts("n18", "spot-a", 1, Duration.ofDays(7));
        AlertEngine e = engine();
        e.evaluate(
                new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), List.of(), new IngestFacts(0, 500)),
                List.of(),
                T0.minusSeconds(60));
        Evaluation ev = e.evaluate(
                new AlertSnapshot(
                        List.of(),
                        List.of(),
                        List.of(fatal, benign, old),
                        List.of(lemon, fine),
                        List.of(),
                        new IngestFacts(20_000, 700)),
                List.of(),
                T0);
        assertThat(ev.changes())
                .extracting(c -> c.alert().rule())
                .containsExactlyInAnyOrder(
                        AlertRule.FATAL_XID, AlertRule.LEMON_NODE, AlertRule.DEAD_LETTER_SPIKE, AlertRule.INGEST_LAG);
        assertThat(ev.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.FATAL_XID)
                .singleElement()
                .satisfies(c -> assertThat(c.alert().labels())
                        .containsEntry("node", "n17")
                        .containsEntry("gpu", "3")
                        .containsEntry("xid", "79"));
        assertThat(ev.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.DEAD_LETTER_SPIKE)
                .singleElement()
                .satisfies(c -> assertThat(c.alert().value()).isEqualTo(200.0));
        assertThat(ev.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.INGEST_LAG)
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.PENDING));
    }

    @Test
    void theEngineHoldsAtMostItsMaximumOfAlerts() {
        AlertEngine e = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ZERO, null, null)),
                5,
                3);
        JobFacts[] many = new JobFacts[20];
        for (int i = 0; i < many.length; i++) {
            many[i] = job("ml/j" + i, 61);
        }
        Evaluation ev = e.evaluate(jobs(many), List.of(), T0);
        assertThat(ev.overflowed()).isEqualTo(15);
        assertThat(e.alerts()).hasSize(5);
        e.evaluate(jobs(), List.of(), T0.plusSeconds(60));
        assertThat(e.alerts()).as("resolved ones are capped too").hasSize(3);
    }

    @Test
    void notificationsGroupByRuleAndNamespaceWithAStableIdempotencyKey() {
        AlertEngine e = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ZERO, null, null)),
                100,
                10);
        Evaluation ev = e.evaluate(jobs(job("ml/a", 61), job("ml/b", 70), job("cv/c", 61)), List.of(), T0);
        List<GroupNotification> groups = AlertGroups.notifications(ev);
        assertThat(groups)
                .extracting(GroupNotification::groupKey)
                .containsExactly(
                        "{}:{alertname=\"CheckpointFreshnessBreached\", namespace=\"cv\"}",
                        "{}:{alertname=\"CheckpointFreshnessBreached\", namespace=\"ml\"}");
        assertThat(groups.get(1).alerts()).hasSize(2);
        assertThat(groups.get(1).status()).isEqualTo("firing");
        assertThat(AlertGroups.notifications(ev))
                .extracting(GroupNotification::idempotencyKey)
                .isEqualTo(
                        groups.stream().map(GroupNotification::idempotencyKey).toList());
        Evaluation resolvedB = e.evaluate(jobs(job("ml/a", 62), job("cv/c", 62)), List.of(), T0.plusSeconds(60));
        List<GroupNotification> next = AlertGroups.notifications(resolvedB);
        assertThat(next).singleElement().satisfies(g -> {
            assertThat(g.status()).as("ml/a still fires").isEqualTo("firing");
            assertThat(g.alerts())
                    .extracting(Alert::state)
                    .containsExactlyInAnyOrder(AlertState.FIRING, AlertState.RESOLVED);
            assertThat(g.idempotencyKey()).isNotEqualTo(groups.get(1).idempotencyKey());
        });
    }

    @Test
    void aRestoredFiringAlertKeepsItsStartAndIsNotNotifiedAgain() {
        AlertEngine first = engine();
        at(first, jobs(job("ml/a", 61)), 0);
        Alert firing = at(first, jobs(job("ml/a", 70)), 6).alerts().get(0);
        assertThat(firing.state()).isEqualTo(AlertState.FIRING);
        AlertEngine restarted = engine();
        restarted.restore(first.alerts());
        Evaluation ev = at(restarted, jobs(job("ml/a", 80)), 8);
        assertThat(ev.changes()).isEmpty();
        assertThat(ev.alerts()).singleElement().satisfies(a -> {
            assertThat(a.fingerprint()).isEqualTo(firing.fingerprint());
            assertThat(a.firingSince()).isEqualTo(firing.firingSince());
        });
    }

    @Test
    void transitionsOutsideTheTableAreRefused() {
        assertThat(AlertState.RESOLVED.canFollow(AlertState.PENDING)).isFalse();
        assertThat(AlertState.FIRING.canFollow(AlertState.RESOLVED)).isTrue();
        assertThat(AlertState.INACTIVE.canFollow(AlertState.FIRING)).isFalse();
    }
}
