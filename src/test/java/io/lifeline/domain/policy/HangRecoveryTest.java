package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobDriver;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** hang-recovery: restart the workers of a hung job once; drain a node named in repeated hangs. */
class HangRecoveryTest {

    private final JobDriver d = new JobDriver("ml/llm");
    private final Fleet fleet = new Fleet(Clock.fixed(JobDriver.at("10:00:00"), ZoneOffset.UTC));

    private PolicyEngine engine(PolicyMode mode) {
        return new PolicyEngine(
                PolicySettings.allOff().with(PolicyName.HANG_RECOVERY, new PolicySettings.Entry(mode, Map.of())));
    }

    private void hang(String hms, String sinceHms) {
        d.apply(d.event(
                hms,
                EventType.JOB_HANG_SUSPECTED,
                new JobData.HangSuspected(
                        "training",
                        JobDriver.at(sinceHms),
                        60,
                        30,
                        "floor",
                        "training",
                        List.of(new JobData.HangSuspect(1, "n1", "1", 10L, "stopped first")),
                        List.of())));
    }

    private List<PolicyDecision> decide(PolicyMode mode, String hms) {
        return engine(mode).periodic(d.jobs, fleet, JobDriver.at(hms)).stream()
                .filter(x -> x.policy() == PolicyName.HANG_RECOVERY)
                .toList();
    }

    @Test
    void aHungJobGetsItsWorkersRestartedOnceKeyedByItsIncident() {
        d.runningOn(1, "10:00:00").progress("10:05:00", 10);
        hang("10:06:00", "10:05:00");
        String incident = d.lastIncident().id();

        assertThat(decide(PolicyMode.ON, "10:06:05")).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.RESTART_WORKERS);
            assertThat(x.request().target()).isEqualTo("ml/llm");
            assertThat(x.request().reason()).startsWith("incident " + incident + ": training hang");
            assertThat(x.idempotencyKey()).isEqualTo("hang:ml/llm:" + incident);
            assertThat(x.isSkipped()).isFalse();
        });
        assertThat(decide(PolicyMode.OFF, "10:06:05")).isEmpty();

        d.restarted("10:06:30", 1);
        assertThat(decide(PolicyMode.ON, "10:06:35")).isEmpty();
    }

    @Test
    void aJobThatIsNotHungIsLeftAlone() {
        d.runningOn(1, "10:00:00").progress("10:05:00", 10);
        d.workerFailed("10:06:00", 0, "n1");

        assertThat(decide(PolicyMode.ON, "10:06:05")).isEmpty();
    }

    @Test
    void aNodeNamedInTwoHangsWithinADayIsDrainedWithTheIncidentsAsItsReason() {
        fleet.apply(new Event(
                "r1",
                "test://fleet",
                EventType.NODE_REGISTERED,
                "n1",
                JobDriver.at("09:00:00"),
                new NodeData.Registered("pool-a", CapacityType.SPOT, null, null, 8, null)));
        d.runningOn(1, "10:00:00").progress("10:05:00", 10);
        hang("10:06:00", "10:05:00");
        assertThat(decide(PolicyMode.ON, "10:06:05"))
                .extracting(x -> x.request().kind())
                .containsExactly(ActionKind.RESTART_WORKERS);
        d.restarted("10:07:00", 1)
                .restored("10:07:30", "", 0)
                .progress("10:08:00", 1)
                .progress("10:20:00", 20);
        hang("10:30:00", "10:20:00");

        List<PolicyDecision> out = decide(PolicyMode.DRY_RUN, "10:30:05");

        assertThat(out)
                .extracting(x -> x.request().kind())
                .containsExactly(ActionKind.RESTART_WORKERS, ActionKind.DRAIN);
        PolicyDecision drain = out.get(1);
        assertThat(drain.mode()).isEqualTo(PolicyMode.DRY_RUN);
        assertThat(drain.request().target()).isEqualTo("n1");
        assertThat(drain.request().reason()).startsWith("node n1 is named in 2 hang incidents within 24 h");
    }
}
