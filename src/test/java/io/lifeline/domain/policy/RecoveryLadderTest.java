package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * recovery-ladder end to end on the model: each round writes what the ladder decided and checked back into the job as
 * events (as the runner does through the event log), then asks for the actions of pending advice.
 */
class RecoveryLadderTest {

    private static final String NAN = "RuntimeError: loss is nan at step 120";

    private final JobDriver d = new JobDriver("ml/llm");
    private final Fleet fleet = new Fleet(Clock.fixed(JobDriver.at("09:00:00"), ZoneOffset.UTC));
    private PolicyMode mode = PolicyMode.ON;
    private int written;

    private PolicyEngine engine() {
        return new PolicyEngine(
                PolicySettings.allOff().with(PolicyName.RECOVERY_LADDER, new PolicySettings.Entry(mode, Map.of())));
    }

    /** One round of the runner at {@code hms}: records written into the model, then the ladder's actions. */
    private List<PolicyDecision> round(String hms) {
        d.now(hms);
        PolicyEngine engine = engine();
        for (RecoveryLadder.Entry e : engine.recovery(d.jobs, fleet, JobDriver.at(hms))) {
            EventType type = e.data() instanceof JobData.RecoveryAdvised
                    ? EventType.JOB_RECOVERY_ADVISED
                    : EventType.JOB_RECOVERY_CHECKED;
            d.apply(new Event(e.id(), "lifeline/recovery", type, e.job(), JobDriver.at(hms), e.data()));
            written++;
        }
        return engine.periodic(d.jobs, fleet, JobDriver.at(hms)).stream()
                .filter(x -> x.policy() == PolicyName.RECOVERY_LADDER)
                .toList();
    }

    private List<Advice> advice() {
        return d.jobs.recoveryAdvice("ml/llm").orElseThrow();
    }

    private Advice latest() {
        List<Advice> all = advice();
        return all.get(all.size() - 1);
    }

    private void register(String node) {
        fleet.apply(new Event(
                "r-" + node,
                "test://fleet",
                EventType.NODE_REGISTERED,
                node,
                JobDriver.at("09:00:00"),
                new NodeData.Registered("pool-a", CapacityType.ON_DEMAND, null, null, 8, null)));
    }

    private void cordon(String node, String hms) {
        fleet.apply(new Event(
                "c-" + node + hms,
                "test://fleet",
                EventType.NODE_CORDONED,
                node,
                JobDriver.at(hms),
                new NodeData.Cordoned("lifeline")));
    }

    private void failed(String hms, int rank, String node, String error) {
        d.apply(d.event(
                hms, EventType.TRAINER_WORKER_FAILED, new TrainerData.WorkerFailed("run-1", rank, node, 1, error)));
    }

    /** Every rank of both nodes raises the same error. */
    private void allRanksFail(String hms, String error) {
        for (int rank = 0; rank < 16; rank++) {
            failed(hms, rank, rank < 8 ? "n1" : "n2", error);
        }
    }

    @Test
    void theSameErrorOnEveryRankAtTheSameStepThreeTimesStopsTheJobAsAWorkloadError() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:01:00", "c100", 100, false).checkpointCompleted("10:01:10", "c100", 100, 10, 10, false);
        d.progress("10:02:00", 120);
        allRanksFail("10:02:01", NAN);

        assertThat(round("10:02:05")).isEmpty();
        Advice first = latest();
        assertThat(first.remedy()).isEqualTo(Remedy.RESTART_IN_PLACE);
        assertThat(first.rule()).isEqualTo(RecoveryRules.TRANSIENT);
        assertThat(first.rulesVersion()).isEqualTo(RecoveryRules.VERSION);
        assertThat(first.expected()).startsWith("training resumes by ");

        // torchrun restarts in place from c100 and fails again at 120, twice more.
        for (String[] t : new String[][] {{"10:03", "10:04"}, {"10:05", "10:06"}}) {
            d.restarted(t[0] + ":00", 1).restored(t[0] + ":10", "c100", 100).progress(t[0] + ":20", 101);
            assertThat(round(t[0] + ":25")).isEmpty();
            assertThat(latest().verdict()).isEqualTo(Verdict.VERIFIED);
            assertThat(latest().outcome()).startsWith("training resumed at ");
            d.progress(t[1] + ":00", 120);
            allRanksFail(t[1] + ":01", NAN);
            round(t[1] + ":05");
        }

        Advice stop = latest();
        assertThat(stop.remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(stop.rule()).isEqualTo(RecoveryRules.WORKLOAD_ERROR);
        assertThat(stop.evidence())
                .hasSize(3)
                .allSatisfy(e -> assertThat(e).contains("ended at step 120 with " + NAN + " on ranks [0, 1, 2"));
        List<PolicyDecision> out = round("10:06:10");
        assertThat(out).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.PREEMPT);
            assertThat(x.request().target()).isEqualTo("ml/llm");
            assertThat(x.request().reason()).startsWith("recovery advice " + stop.id() + " (workload-error)");
            assertThat(x.idempotencyKey()).isEqualTo("recovery:ml/llm:" + stop.id());
            assertThat(x.mode()).isEqualTo(PolicyMode.ON);
        });

        d.preempted("10:07:00");
        assertThat(round("10:07:05")).isEmpty();
        assertThat(latest().verdict()).isEqualTo(Verdict.VERIFIED);
        assertThat(latest().outcome()).isEqualTo("the job stopped (preempted)");
    }

    @Test
    void aNodeThatFailsItsWorkersInTwoAttemptsInARowIsExcludedAndTheExclusionIsVerified() {
        register("n1");
        register("n2");
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 9, "n2", "RuntimeError: CUDA error: an illegal memory access was encountered");
        round("10:01:05");
        assertThat(latest().remedy()).isEqualTo(Remedy.RESTART_IN_PLACE);
        d.restarted("10:02:00", 1).rendezvous("10:02:05", 2, 8, "n1", "n2").progress("10:02:10", 51);
        round("10:02:15");
        d.progress("10:03:00", 80);
        failed("10:03:01", 12, "n2", "RuntimeError: CUDA error: an illegal memory access was encountered");
        // Its peers on n1 were ended by their agent after it: not evidence against n1.
        d.apply(d.event(
                "10:03:02",
                EventType.TRAINER_WORKER_FAILED,
                new TrainerData.WorkerFailed("run-1", 0, "n1", -15, null)));

        round("10:03:05");
        Advice exclude = latest();
        assertThat(exclude.remedy()).isEqualTo(Remedy.RESTART_EXCLUDING_NODE);
        assertThat(exclude.node()).isEqualTo("n2");
        assertThat(exclude.rule()).isEqualTo(RecoveryRules.FAILING_NODE);
        assertThat(exclude.evidence())
                .containsExactly(
                        "attempt 1 failed only on n2 (RuntimeError: CUDA error: an illegal memory access was encountered) of"
                                + " 2 nodes",
                        "attempt 2 failed only on n2 (RuntimeError: CUDA error: an illegal memory access was encountered) of"
                                + " 2 nodes");

        assertThat(round("10:03:10")).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.DRAIN);
            assertThat(x.request().target()).isEqualTo("n2");
        });

        cordon("n2", "10:03:20");
        d.restarted("10:03:30", 2).rendezvous("10:03:40", 3, 8, "n1").progress("10:03:50", 81);
        // Reached, but not held for 30 s yet.
        assertThat(round("10:03:55")).isEmpty();
        assertThat(latest().verdict()).isEqualTo(Verdict.PENDING);
        round("10:04:10");
        assertThat(latest().verdict()).isEqualTo(Verdict.VERIFIED);
        assertThat(latest().outcome())
                .isEqualTo("node n2 cordoned and out of the group of 1 node; training resumed" + " (step 81)");
    }

    @Test
    void anElasticJobThatLostANodeIsRescaledToItsSurvivorsThroughTheBrakeAndTheShrinkIsVerified() {
        register("n1");
        register("n2");
        register("n3");
        d.runningOn(3, "10:00:00").progress("10:01:00", 50);
        fleet.apply(new Event(
                "t-n3",
                "test://fleet",
                EventType.NODE_TERMINATED,
                "n3",
                JobDriver.at("10:01:01"),
                new NodeData.Terminated("instance gone")));
        d.terminated("10:01:01", "n3");

        List<PolicyDecision> out = round("10:01:05");
        Advice shrink = latest();
        assertThat(shrink.remedy()).isEqualTo(Remedy.SHRINK_TO_SURVIVORS);
        assertThat(shrink.rule()).isEqualTo(RecoveryRules.LOST_NODE);
        assertThat(shrink.node()).isEqualTo("n3");
        assertThat(out).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.RESCALE);
            assertThat(x.request().target()).isEqualTo("ml/llm");
            assertThat(x.request().params()).containsEntry("workers", "2");
            // Counted by the automation brake against the node it is about, like a drain of it.
            assertThat(x.nodeTaken()).isEqualTo("n3");
            // A rescale waits for trainers that can take its notice, as every policy's does.
            assertThat(x.skipped()).isEqualTo("job is recovering: its trainers are not training");
            assertThat(x.idempotencyKey()).startsWith("recovery:ml/llm:" + shrink.id() + "|");
        });

        d.rendezvous("10:01:30", 2, 8, "n1", "n2").progress("10:01:40", 51);
        // Asked again while pending, under the same key: one action.
        assertThat(round("10:01:45"))
                .extracting(x -> x.idempotencyKey().split("\\|")[0])
                .containsOnly("recovery:ml/llm:" + shrink.id());
        assertThat(latest().verdict()).isEqualTo(Verdict.PENDING);
        round("10:02:01");
        assertThat(latest().verdict()).isEqualTo(Verdict.VERIFIED);
        assertThat(latest().outcome())
                .isEqualTo("the group formed without node n3 at 2 nodes; training resumed (step 51)");
    }

    @Test
    void pendingAdviceToReplaceANodesPodsAsksForThatReplacementThroughTheBrake() {
        register("n1");
        register("n2");
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 9, "n2", "RuntimeError: CUDA error");
        String incident = d.lastIncident().id();
        d.apply(new Event(
                "advised-replace",
                "lifeline/recovery",
                EventType.JOB_RECOVERY_ADVISED,
                "ml/llm",
                JobDriver.at("10:01:05"),
                new JobData.RecoveryAdvised(
                        incident,
                        1,
                        "replace-failed-pods",
                        "n2",
                        RecoveryRules.FAILING_PODS,
                        RecoveryRules.VERSION,
                        List.of("attempt 1 failed only on n2"),
                        "the job's pods on node n2 replaced",
                        JobDriver.at("10:16:05"),
                        "on")));
        assertThat(latest().remedy()).isEqualTo(Remedy.REPLACE_FAILED_PODS);

        d.now("10:01:10");
        List<PolicyDecision> out = engine().periodic(d.jobs, fleet, JobDriver.at("10:01:10")).stream()
                .filter(x -> x.policy() == PolicyName.RECOVERY_LADDER)
                .toList();
        assertThat(out).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.REPLACE_PODS);
            assertThat(x.request().target()).isEqualTo("ml/llm");
            assertThat(x.request().params()).containsExactly(Map.entry("node", "n2"));
            assertThat(x.idempotencyKey()).isEqualTo("recovery:ml/llm:" + incident + "/1");
            assertThat(x.nodeTaken()).isEqualTo("n2");
        });
    }

    @Test
    void anExcludedNodeGivenBackToTheJobFailsTheRemedyAndTheNextRungIsRecordedWithTheReason() {
        register("n1");
        register("n2");
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 9, "n2", "RuntimeError: CUDA error");
        round("10:01:05");
        d.restarted("10:02:00", 1).rendezvous("10:02:05", 2, 8, "n1", "n2").progress("10:02:10", 51);
        round("10:02:15");
        failed("10:03:01", 12, "n2", "RuntimeError: CUDA error");
        round("10:03:05");
        assertThat(latest().remedy()).isEqualTo(Remedy.RESTART_EXCLUDING_NODE);

        cordon("n2", "10:03:20");
        d.restarted("10:03:30", 2).rendezvous("10:03:40", 3, 8, "n1").progress("10:03:50", 81);
        // Someone gives n2 back before the exclusion held: it rejoins the group.
        d.rendezvous("10:03:55", 4, 8, "n1", "n2");

        List<PolicyDecision> out = round("10:04:00");
        List<Advice> all = advice();
        Advice failed = all.get(all.size() - 2);
        assertThat(failed.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(failed.outcome())
                .isEqualTo("node n2 is in the job's group again (out of it at 2024-05-01T10:03:40Z, group formed at"
                        + " 2024-05-01T10:03:55Z)");
        Advice next = latest();
        assertThat(next.rung()).isEqualTo(2);
        assertThat(next.remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(next.rule()).isEqualTo(RecoveryRules.ESCALATION);
        assertThat(next.evidence())
                .singleElement()
                .asString()
                .startsWith("rung 1 (restart-excluding-node) failed: node n2");
        assertThat(out).extracting(x -> x.request().kind()).containsExactly(ActionKind.PREEMPT);
    }

    @Test
    void aRestartThatDoesNotResumeTrainingByItsDeadlineEscalates() {
        d.runningOn(1, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 3, "n1", "OSError: [Errno 5] Input/output error");
        round("10:01:05");
        assertThat(round("10:10:00")).isEmpty();
        assertThat(latest().verdict()).isEqualTo(Verdict.PENDING);

        round("10:11:06");
        Advice failed = advice().get(0);
        assertThat(failed.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(failed.outcome()).isEqualTo("training did not resume within 10 min");
        // One node only: there is nothing to exclude, so the next rung stops the job.
        assertThat(latest().remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
    }

    @Test
    void attemptsThatFailWithoutTheirCheckpointAdvancingStopTheJob() {
        d.runningOn(1, "10:00:00");
        d.checkpointStarted("10:00:30", "c10", 10, false).checkpointCompleted("10:00:40", "c10", 10, 10, 10, false);
        // Four failures, each a different error: the first attempt saved c10, the next three never got past it.
        String[] errors = {"ValueError: a", "KeyError: 'b'", "RuntimeError: c", "OSError: d"};
        for (int i = 0; i < 4; i++) {
            String m = String.format("10:%02d", 1 + 2 * i);
            d.progress(m + ":00", 15 + i);
            failed(m + ":01", 0, "n1", errors[i]);
            round(m + ":05");
            String n = String.format("10:%02d", 2 + 2 * i);
            if (i < 3) {
                d.restarted(n + ":00", i + 1).restored(n + ":05", "c10", 10).progress(n + ":10", 11);
                round(n + ":15");
            }
        }
        Advice stop = latest();
        assertThat(stop.remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(stop.rule()).isEqualTo(RecoveryRules.NO_CHECKPOINT_PROGRESS);
        assertThat(stop.evidence())
                .last()
                .asString()
                .isEqualTo("attempt 4 ended by software-error at step 18 without a checkpoint past step 10");
        assertThat(advice())
                .extracting(Advice::remedy)
                .containsExactly(
                        Remedy.RESTART_IN_PLACE,
                        Remedy.RESTART_IN_PLACE,
                        Remedy.RESTART_IN_PLACE,
                        Remedy.STOP_AND_PAGE);
    }

    @Test
    void notAndPlannedInterruptionsGetNoAdviceAndDoNotSpendTheFailureBudget() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        for (int i = 0; i < 5; i++) {
            String m = String.format("10:%02d", 2 + 2 * i);
            d.notice(m + ":00", "n2", NoticeKind.SPOT_RECLAIM, m + ":50");
            d.terminated(m + ":50", "n2");
            round(m + ":55");
            d.rendezvous(String.format("10:%02d:10", 3 + 2 * i), 2 + i, 8, "n1", "n2")
                    .progress(String.format("10:%02d:20", 3 + 2 * i), 60 + i);
        }
        assertThat(advice()).isEmpty();
        Budgets b = d.jobs.budgets("ml/llm", null, null).orElseThrow();
        assertThat(b.planned()).isEqualTo(5);
        assertThat(b.failures()).isZero();
        // The job declares maxRestarts 3: five reclaims did not exhaust it...
        assertThat(b.failureBudget()).isEqualTo(3);
        assertThat(d.detail().summary().restartBudgetExhausted()).isFalse();

        // ...four failures do, and the notices that follow are still answered like before.
        for (int i = 0; i < 4; i++) {
            String m = String.format("10:%02d", 20 + 2 * i);
            failed(m + ":01", 0, "n1", "RuntimeError: x" + i);
            d.restarted(m + ":30", i + 1).progress(String.format("10:%02d:00", 21 + 2 * i), 70 + i);
        }
        assertThat(d.detail().summary().restartBudgetExhausted()).isTrue();
        assertThat(d.jobs.budgets("ml/llm", null, 2).orElseThrow().plannedSpent())
                .isTrue();
    }

    @Test
    void inDryRunTheAdviceIsRecordedAndItsActionOnlyRecordedToo() {
        mode = PolicyMode.DRY_RUN;
        d.runningOn(1, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 3, "n1", "OSError: disk");
        round("10:01:05");
        round("10:11:06");
        assertThat(latest().mode()).isEqualTo("dry-run");
        assertThat(latest().remedy()).isEqualTo(Remedy.STOP_AND_PAGE);
        assertThat(round("10:11:10"))
                .singleElement()
                .satisfies(x -> assertThat(x.mode()).isEqualTo(PolicyMode.DRY_RUN));
    }

    @Test
    void offDecidesNothingAndARoundWrittenTwiceIsOneAdvice() {
        mode = PolicyMode.OFF;
        d.runningOn(1, "10:00:00").progress("10:01:00", 50);
        failed("10:01:01", 3, "n1", "OSError: disk");
        round("10:01:05");
        assertThat(advice()).isEmpty();

        mode = PolicyMode.ON;
        round("10:01:10");
        int after = written;
        // A second leader writing the same round: same event ids, nothing new.
        for (RecoveryLadder.Entry e : engine().recovery(d.jobs, fleet, JobDriver.at("10:01:10"))) {
            assertThat(e.id()).isNotBlank();
        }
        assertThat(advice()).hasSize(1);
        assertThat(written).isEqualTo(after);
    }
}
