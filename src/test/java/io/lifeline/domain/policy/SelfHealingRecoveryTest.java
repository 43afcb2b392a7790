package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A TorchFT job's replica failures are left to TorchFT: the recovery ladder records "left to the job" where it would
 * have restarted the job or taken a node out, requests no drain, and checks that training resumed; the job shows that it
 * heals itself.
 */
class SelfHealingRecoveryTest {

    private static final String CUDA = "RuntimeError: CUDA error: an illegal memory access was encountered";

    private final JobDriver d = new JobDriver("ml/llm-ft");
    private final Fleet fleet = new Fleet(Clock.fixed(JobDriver.at("09:00:00"), ZoneOffset.UTC));

    private final PolicyEngine engine = new PolicyEngine(PolicySettings.allOff()
            .with(PolicyName.RECOVERY_LADDER, new PolicySettings.Entry(PolicyMode.ON, Map.of())));

    private List<PolicyDecision> round(String hms) {
        d.now(hms);
        for (RecoveryLadder.Entry e : engine.recovery(d.jobs, fleet, JobDriver.at(hms))) {
            EventType type = e.data() instanceof JobData.RecoveryAdvised
                    ? EventType.JOB_RECOVERY_ADVISED
                    : EventType.JOB_RECOVERY_CHECKED;
            d.apply(new Event(e.id(), "lifeline/recovery", type, e.job(), JobDriver.at(hms), e.data()));
        }
        return engine.periodic(d.jobs, fleet, JobDriver.at(hms)).stream()
                .filter(x -> x.policy() == PolicyName.RECOVERY_LADDER)
                .toList();
    }

    private Advice latest() {
        List<Advice> all = d.jobs.recoveryAdvice("ml/llm-ft").orElseThrow();
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

    private void failed(String hms, int rank, String node) {
        d.apply(d.event(
                hms, EventType.TRAINER_WORKER_FAILED, new TrainerData.WorkerFailed("run-1", rank, node, 1, CUDA)));
    }

    private void torchFt(String hms) {
        d.apply(d.event(
                hms,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(
                        "ml",
                        "alice",
                        "high",
                        new ElasticPolicy(1, 2, 8, 3),
                        8,
                        1800L,
                        new JobData.SelfHealing("torchft", "http://llm-ft-lighthouse:29510"))));
    }

    @Test
    void aReplicaThatFailsTwiceOnOneNodeIsLeftToTorchFtNotDrained() {
        register("n1");
        register("n2");
        d.runningOn(2, "10:00:00");
        torchFt("10:00:00");
        assertThat(d.jobs.detail("ml/llm-ft").orElseThrow().healsItself())
                .isEqualTo(new JobData.SelfHealing("torchft", "http://llm-ft-lighthouse:29510"));
        d.progress("10:01:00", 50);
        failed("10:01:01", 9, "n2");

        assertThat(round("10:01:05")).isEmpty();
        Advice first = latest();
        assertThat(first.remedy()).isEqualTo(Remedy.LEFT_TO_JOB);
        assertThat(first.rule()).isEqualTo(RecoveryRules.HEALS_ITSELF);
        assertThat(first.evidence().get(0)).contains("heals itself (torchft)");
        assertThat(first.evidence().get(1)).isEqualTo("rule transient would have advised restart-in-place");
        assertThat(first.expected()).startsWith("the job heals the failed replica itself; training resumes by ");

        // TorchFT's quorum drops the replica and takes it back; training goes on.
        d.rendezvous("10:01:20", 2, 8, "n1")
                .rendezvous("10:02:00", 3, 8, "n1", "n2")
                .progress("10:02:10", 51);
        round("10:02:15");
        assertThat(latest().verdict()).isEqualTo(Verdict.VERIFIED);

        d.progress("10:03:00", 80);
        failed("10:03:01", 12, "n2");
        // Two attempts in a row failed only on n2: another job's node would be taken out; this one is left to TorchFT.
        assertThat(round("10:03:05")).isEmpty();
        Advice second = latest();
        assertThat(second.remedy()).isEqualTo(Remedy.LEFT_TO_JOB);
        assertThat(second.node()).isNull();
        assertThat(second.evidence()).contains("rule failing-node would have advised restart-excluding-node");
        assertThat(round("10:03:10")).isEmpty();

        // Not healed by the deadline: recorded as failed, and nothing further (no rung restarts or replaces pods).
        List<PolicyDecision> late = round("10:20:00");
        assertThat(late).isEmpty();
        assertThat(latest().verdict()).isEqualTo(Verdict.FAILED);
        assertThat(latest().remedy()).isEqualTo(Remedy.LEFT_TO_JOB);
    }
}
