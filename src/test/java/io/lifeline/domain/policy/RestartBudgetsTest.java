package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.recovery.RecoveryRules;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * restart-loop-suspend against the two budgets: interruptions with notice never spend the failures' budget, a job that
 * spent it still has its notices answered, and a budget for interruptions with notice is enforced on its own.
 */
class RestartBudgetsTest {

    private final JobDriver d = new JobDriver("ml/llm");
    private final Fleet fleet = new Fleet(Clock.fixed(JobDriver.at("09:00:00"), ZoneOffset.UTC));
    private final PolicyEngine engine = new PolicyEngine(PolicySettings.allOff()
            .with(PolicyName.RESTART_LOOP_SUSPEND, new PolicySettings.Entry(PolicyMode.ON, Map.of()))
            .with(PolicyName.NOTICE_CHECKPOINT_DRAIN, new PolicySettings.Entry(PolicyMode.ON, Map.of())));

    private List<PolicyDecision> loop(String hms) {
        return engine.periodic(d.jobs, fleet, JobDriver.at(hms)).stream()
                .filter(x -> x.policy() == PolicyName.RESTART_LOOP_SUSPEND)
                .toList();
    }

    /** A spot reclaim of n2 at minute m: notice, termination, the group back, training again. */
    private void reclaim(int m) {
        String at = String.format("10:%02d", m);
        d.notice(at + ":00", "n2", NoticeKind.SPOT_RECLAIM, at + ":50");
        d.terminated(at + ":50", "n2");
        d.rendezvous(String.format("10:%02d:10", m + 1), 2 + m, 8, "n1", "n2")
                .progress(String.format("10:%02d:20", m + 1), 100 + m);
    }

    private void failure(int m) {
        String at = String.format("10:%02d", m);
        d.workerFailed(at + ":01", 0, "n1")
                .restarted(at + ":30", m)
                .progress(String.format("10:%02d:00", m + 1), 200 + m);
    }

    @Test
    void reclaimsNeverSpendTheFailureBudgetAndNoticesAreStillAnsweredOnceItIsSpent() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        // The job declares maxRestarts 3; six reclaims are not failures.
        for (int m = 2; m < 14; m += 2) {
            reclaim(m);
        }
        assertThat(loop("10:15:00")).isEmpty();

        for (int m = 20; m < 28; m += 2) {
            failure(m);
        }
        assertThat(loop("10:29:00")).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.PREEMPT);
            assertThat(x.request().reason()).isEqualTo("4 failures: failure budget of 3 exhausted");
        });

        // A notice for the job's node is answered as before: checkpoint and drain inside it.
        fleet.apply(new Event(
                "r-n2",
                "test://fleet",
                EventType.NODE_REGISTERED,
                "n2",
                JobDriver.at("09:00:00"),
                new NodeData.Registered("pool-a", CapacityType.SPOT, null, null, 8, null)));
        Event notice = new Event(
                "notice-after",
                "test://aws",
                EventType.NODE_INTERRUPTION_NOTICE,
                "n2",
                JobDriver.at("10:30:00"),
                new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "aws", JobDriver.at("10:30:00").plus(Duration.ofMinutes(2))));
        assertThat(engine.onEvent(notice, ApplyOutcome.CHANGED, d.jobs, fleet, JobDriver.at("10:30:00")))
                .singleElement()
                .satisfies(x -> assertThat(x.request().kind()).isEqualTo(ActionKind.DRAIN));
    }

    @Test
    void aBudgetForInterruptionsWithNoticeIsEnforcedOnItsOwn() {
        engine.recoveryRules(new RecoveryRules(
                RecoveryRules.VERSION,
                3,
                3,
                2,
                Duration.ofMinutes(10),
                Duration.ofMinutes(15),
                Duration.ofMinutes(10),
                Duration.ofSeconds(30),
                null,
                2));
        d.runningOn(2, "10:00:00").progress("10:01:00", 50);
        reclaim(2);
        reclaim(4);
        assertThat(loop("10:06:00")).isEmpty();
        reclaim(6);
        assertThat(loop("10:08:00"))
                .singleElement()
                .satisfies(x -> assertThat(x.request().reason())
                        .isEqualTo("3 interruptions with notice or by plan: their budget of 2 exhausted"));
    }
}
