package io.lifeline.domain.job.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two rungs between a restart in place and an exclusion or a stop: {@code replace-failed-pods} (rule
 * {@code failing-pods}) and {@code shrink-to-survivors} (rule {@code lost-node}); their checks and where they escalate.
 */
class ReplaceAndShrinkTest {

    private static final RecoveryRules RULES = RecoveryRules.defaults();
    private static final Instant DECIDED = Instant.parse("2026-12-01T10:00:00Z");

    private final JobDriver d = new JobDriver("ml/llm");

    private Advice decide(RecoveryDecider.JobFacts facts) {
        IncidentView incident = d.lastIncident();
        return RecoveryDecider.decide(
                RULES,
                "ml/llm",
                incident,
                d.jobs.attempts("ml/llm").orElseThrow(),
                facts,
                "on",
                JobDriver.at("10:01:05"));
    }

    private void failed(String hms, int rank, String node, String error) {
        d.apply(d.event(
                hms, EventType.TRAINER_WORKER_FAILED, new TrainerData.WorkerFailed("run-1", rank, node, 1, error)));
    }

    // ------------------------------------------------------------------------------------------- the rules

    @Test
    void theTableIsVersionTwoWithTheNewRulesInTheirPlace() {
        assertThat(RecoveryRules.VERSION).isEqualTo("2");
        assertThat(RULES.table())
                .extracting(RecoveryRules.Rule::id)
                .containsExactly(
                        RecoveryRules.WORKLOAD_ERROR,
                        RecoveryRules.LOST_NODE,
                        RecoveryRules.FAILING_NODE,
                        RecoveryRules.NO_CHECKPOINT_PROGRESS,
                        RecoveryRules.FAILING_PODS,
                        RecoveryRules.TRANSIENT);
        assertThat(RULES.deadline(Remedy.REPLACE_FAILED_PODS)).isEqualTo(RULES.excludeDeadline());
        assertThat(RULES.deadline(Remedy.SHRINK_TO_SURVIVORS)).isEqualTo(RULES.excludeDeadline());
        assertThat(Remedy.REPLACE_FAILED_PODS.wire()).isEqualTo("replace-failed-pods");
        assertThat(Remedy.SHRINK_TO_SURVIVORS.wire()).isEqualTo("shrink-to-survivors");
    }

    @Test
    void aFirstFailureOnOneNodeWhoseWorkersCannotRestartInPlaceReplacesThatNodesPods() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 9, "n2", "RuntimeError: CUDA error: an illegal memory access was encountered");

        Advice replace = decide(new RecoveryDecider.JobFacts(1, false, Map.of(), null));
        assertThat(replace.remedy()).isEqualTo(Remedy.REPLACE_FAILED_PODS);
        assertThat(replace.rule()).isEqualTo(RecoveryRules.FAILING_PODS);
        assertThat(replace.node()).isEqualTo("n2");
        assertThat(replace.rulesVersion()).isEqualTo("2");
        assertThat(replace.evidence())
                .containsExactly(
                        "attempt 1 failed only on n2 (RuntimeError: CUDA error: an illegal memory access was"
                                + " encountered) of 2 nodes",
                        "the job's torchrun restarts are used up: its workers cannot restart in place");
        assertThat(replace.expected()).startsWith("the job's pods on node n2 replaced");

        // While torchrun can still restart them where they are, that comes first, as before.
        assertThat(decide(RecoveryDecider.JobFacts.unknown()).remedy()).isEqualTo(Remedy.RESTART_IN_PLACE);
        assertThat(decide(new RecoveryDecider.JobFacts(1, true, Map.of(), null)).rule())
                .isEqualTo(RecoveryRules.TRANSIENT);
    }

    @Test
    void failuresOnSeveralNodesAreNoCaseForReplacingOneNodesPods() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 0, "n1", "RuntimeError: x");
        failed("10:01:01", 9, "n2", "RuntimeError: x");

        assertThat(decide(new RecoveryDecider.JobFacts(1, false, Map.of(), null))
                        .remedy())
                .isEqualTo(Remedy.RESTART_IN_PLACE);
    }

    @Test
    void anElasticJobThatLostANodeShrinksToTheNodesItHasLeft() {
        d.runningOn(3, "10:00:00").progress("10:01:00", 50);
        d.terminated("10:01:01", "n3");

        Advice shrink = decide(new RecoveryDecider.JobFacts(2, true, Map.of("n3", "terminated"), null));
        assertThat(shrink.remedy()).isEqualTo(Remedy.SHRINK_TO_SURVIVORS);
        assertThat(shrink.rule()).isEqualTo(RecoveryRules.LOST_NODE);
        assertThat(shrink.node()).isEqualTo("n3");
        assertThat(shrink.evidence())
                .hasSize(2)
                .last()
                .asString()
                .isEqualTo("the job is elastic (at least 2 nodes); the 2 left: [n1, n2]");
        assertThat(shrink.evidence().get(0)).startsWith("node n3 is terminated (node-failure");
    }

    @Test
    void noShrinkBelowTheMinimumNorOfAJobThatIsNotElasticNorForANodeStillUsable() {
        d.runningOn(3, "10:00:00").progress("10:01:00", 50);
        d.terminated("10:01:01", "n3");

        assertThat(decide(new RecoveryDecider.JobFacts(3, true, Map.of("n3", "terminated"), null))
                        .remedy())
                .isNotEqualTo(Remedy.SHRINK_TO_SURVIVORS);
        assertThat(decide(new RecoveryDecider.JobFacts(null, true, Map.of("n3", "terminated"), null))
                        .remedy())
                .isNotEqualTo(Remedy.SHRINK_TO_SURVIVORS);
        assertThat(decide(new RecoveryDecider.JobFacts(1, true, Map.of(), null)).remedy())
                .isNotEqualTo(Remedy.SHRINK_TO_SURVIVORS);
    }

    @Test
    void aNodeThatFailedEveryWorkerAndWentNotReadyIsLostToo() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 9, "n2", "RuntimeError: NCCL error");

        Advice shrink = decide(new RecoveryDecider.JobFacts(1, true, Map.of("n2", "not ready"), null));
        assertThat(shrink.remedy()).isEqualTo(Remedy.SHRINK_TO_SURVIVORS);
        assertThat(shrink.node()).isEqualTo("n2");
        assertThat(shrink.evidence().get(0)).startsWith("node n2 is not ready");
    }

    // ------------------------------------------------------------------------------------------ escalation

    @Test
    void theLadderClimbsInPlaceThenReplaceThenExcludeThenStop() {
        assertThat(Remedy.RESTART_IN_PLACE.next(true)).isEqualTo(Remedy.REPLACE_FAILED_PODS);
        assertThat(Remedy.RESTART_IN_PLACE.next(false)).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(Remedy.REPLACE_FAILED_PODS.next(true)).isEqualTo(Remedy.RESTART_EXCLUDING_NODE);
        assertThat(Remedy.REPLACE_FAILED_PODS.next(false)).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(Remedy.RESTART_EXCLUDING_NODE.next(true)).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(Remedy.SHRINK_TO_SURVIVORS.next(true)).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(Remedy.STOP_AND_PAGE.next(true)).isNull();
    }

    @Test
    void escalationCarriesTheFailingNodeToTheNextNodeRung() {
        Advice inPlace = advice(Remedy.RESTART_IN_PLACE, null, RecoveryRules.TRANSIENT)
                .checked(Verdict.FAILED, "training did not resume within 10 min", DECIDED.plusSeconds(600));
        Advice replace = RecoveryDecider.escalate(RULES, inPlace, "n2", 2, "on", DECIDED.plusSeconds(600));
        assertThat(replace.remedy()).isEqualTo(Remedy.REPLACE_FAILED_PODS);
        assertThat(replace.node()).isEqualTo("n2");
        assertThat(replace.rung()).isEqualTo(2);
        assertThat(replace.rule()).isEqualTo(RecoveryRules.ESCALATION);

        Advice exclude = RecoveryDecider.escalate(
                RULES,
                replace.checked(Verdict.FAILED, "training did not resume", DECIDED.plusSeconds(1500)),
                "n2",
                2,
                "on",
                DECIDED.plusSeconds(1500));
        assertThat(exclude.remedy()).isEqualTo(Remedy.RESTART_EXCLUDING_NODE);
        assertThat(exclude.node()).isEqualTo("n2");
        assertThat(exclude.rung()).isEqualTo(3);
        assertThat(exclude.evidence()).singleElement().asString().startsWith("rung 2 (replace-failed-pods) failed");

        Advice shrink = advice(Remedy.SHRINK_TO_SURVIVORS, "n3", RecoveryRules.LOST_NODE)
                .checked(Verdict.FAILED, "training did not resume", DECIDED.plusSeconds(900));
        Advice stop = RecoveryDecider.escalate(RULES, shrink, "n3", 2, "on", DECIDED.plusSeconds(900));
        assertThat(stop.remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(stop.node()).isNull();
    }

    // ------------------------------------------------------------------------------------------ the checks

    @Test
    void replacedPodsAreVerifiedOnceTheGroupFormedAgainAtItsSizeAndHeld() {
        Advice a = advice(Remedy.REPLACE_FAILED_PODS, "n2", RecoveryRules.FAILING_PODS);
        Instant formed = DECIDED.plusSeconds(70);
        RecoveryCheck.Observation o = observe(List.of("n1", "n4"), formed, List.of("n1", "n2"));

        assertThat(RecoveryCheck.check(a, o, RULES, formed.plusSeconds(5)).verdict())
                .isEqualTo(Verdict.PENDING);
        RecoveryCheck.Result r = RecoveryCheck.check(a, o, RULES, formed.plus(RULES.hold()));
        assertThat(r.verdict()).isEqualTo(Verdict.VERIFIED);
        assertThat(r.reason())
                .isEqualTo("the pods on node n2 replaced: the group formed again at 2 nodes; training resumed"
                        + " (step 100)");
    }

    @Test
    void replacedPodsThatNeverRejoinFailAtTheDeadlineWithWhatIsMissing() {
        Advice a = advice(Remedy.REPLACE_FAILED_PODS, "n2", RecoveryRules.FAILING_PODS);
        // Only the survivor re-formed: the recreated pods never joined.
        RecoveryCheck.Observation smaller = observe(List.of("n1"), DECIDED.plusSeconds(60), List.of("n1", "n2"));
        Instant late = a.deadline().plusSeconds(1);
        RecoveryCheck.Result r = RecoveryCheck.check(a, smaller, RULES, late);
        assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(r.reason()).isEqualTo("the group formed at 1 node, not 2 within 15 min");

        RecoveryCheck.Observation ended = new RecoveryCheck.Observation(
                "failed",
                false,
                true,
                false,
                IncidentOutcome.JOB_ENDED,
                null,
                null,
                null,
                List.of(),
                null,
                null,
                null,
                List.of("n1", "n2"));
        assertThat(RecoveryCheck.check(a, ended, RULES, DECIDED.plusSeconds(5)).reason())
                .isEqualTo("the job ended (failed)");
    }

    @Test
    void aShrinkIsVerifiedWithoutTheLostNodeAtTheSurvivorsSizeAndFailsWhileItIsStillThere() {
        Advice a = advice(Remedy.SHRINK_TO_SURVIVORS, "n3", RecoveryRules.LOST_NODE);
        Instant formed = DECIDED.plusSeconds(40);
        RecoveryCheck.Result ok = RecoveryCheck.check(
                a, observe(List.of("n1", "n2"), formed, List.of("n1", "n2", "n3")), RULES, formed.plus(RULES.hold()));
        assertThat(ok.verdict()).isEqualTo(Verdict.VERIFIED);
        assertThat(ok.reason()).isEqualTo("the group formed without node n3 at 2 nodes; training resumed (step 100)");

        RecoveryCheck.Observation still = observe(List.of("n1", "n2", "n3"), formed, List.of("n1", "n2", "n3"));
        assertThat(RecoveryCheck.check(a, still, RULES, formed.plus(RULES.hold()))
                        .verdict())
                .isEqualTo(Verdict.PENDING);
        RecoveryCheck.Result late =
                RecoveryCheck.check(a, still, RULES, a.deadline().plusSeconds(1));
        assertThat(late.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(late.reason()).isEqualTo("node n3 still in the job's group within 15 min");
    }

    private static Advice advice(Remedy remedy, String node, String rule) {
        return RecoveryDecider.advice(
                RULES, "ml/llm", "ml/llm#1", 1, remedy, node, rule, List.of("evidence"), "on", DECIDED);
    }

    private static RecoveryCheck.Observation observe(List<String> nodes, Instant roundAt, List<String> atStop) {
        return new RecoveryCheck.Observation(
                "running",
                true,
                false,
                false,
                IncidentOutcome.RECOVERED,
                roundAt,
                roundAt.plusSeconds(1),
                100L,
                nodes,
                roundAt,
                false,
                null,
                atStop);
    }
}
