package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.PhaseStamp;
import io.lifeline.domain.job.recovery.Attempt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JobSet's restart counters ({@code job.restarted}) join the job's incidents and attempts: a restart the pods already
 * showed joins their incident, one nothing else showed opens one, and the attempt it starts carries its counter.
 */
class ControllerRestartsTest {

    private static final String REASON = "FailurePolicy_Rule1: applying RestartJobSet failure policy action";

    private final JobDriver d = new JobDriver("ml/llm");

    private JobDriver restarted(String hms, int attempt, Integer previous) {
        return d.apply(d.event(
                hms,
                EventType.JOB_RESTARTED,
                new JobData.Restarted("jobset", "recreate", attempt, previous, attempt, 3, REASON)));
    }

    private List<Attempt> attempts() {
        return d.jobs.attempts(d.job).orElseThrow();
    }

    @Test
    void aRestartThePodsShowedJoinsTheirIncidentAndTheNextAttemptCarriesIt() {
        d.runningOn(2, "10:00:00").progress("10:04:00", 400);
        d.workerFailed("10:05:00", 3, "n1");
        assertThat(d.incidents()).hasSize(1);

        restarted("10:05:10", 1, 0);

        assertThat(d.incidents()).hasSize(1);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
        assertThat(d.lastIncident().phases())
                .filteredOn(p -> p.phase() == IncidentPhase.RESTARTED)
                .extracting(PhaseStamp::detail)
                .containsExactly("JobSet restart 1 (1 of maxRestarts 3): " + REASON);

        d.progress("10:06:00", 401);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        List<Attempt> a = attempts();
        assertThat(a).hasSize(2);
        assertThat(a.get(0).restart()).isNull();
        assertThat(a.get(1).restart()).isEqualTo("JobSet restart 1 (1 of maxRestarts 3): " + REASON);
        assertThat(a.get(1).startedAfter()).isEqualTo(d.lastIncident().id());
    }

    @Test
    void aRestartNothingElseShowedStopsTheJob() {
        d.runningOn(2, "10:00:00").progress("10:04:00", 400);

        restarted("10:05:00", 1, 0);

        assertThat(d.incidents()).hasSize(1);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.UNKNOWN);
        assertThat(d.lastIncident().causeDetail()).startsWith("JobSet restart 1");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        d.progress("10:06:00", 401);
        assertThat(attempts().get(1).restart()).startsWith("JobSet restart 1");
    }

    @Test
    void aCounterAlreadySeenOrOneTrainedPastMovesNothing() {
        d.runningOn(2, "10:00:00").progress("10:04:00", 400);
        restarted("10:05:00", 1, 0);
        d.progress("10:06:00", 401);
        // The same counter again (another id: a re-list after a restart of Lifeline).
        restarted("10:06:30", 1, null);
        // A restart reported after the job trained past it.
        d.progress("10:08:00", 500);
        restarted("10:07:00", 2, 1);

        assertThat(d.incidents()).hasSize(1);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void anInPlaceRestartIsCountedApartFromRecreations() {
        d.runningOn(2, "10:00:00").progress("10:04:00", 400);
        d.apply(d.event(
                "10:05:00",
                EventType.JOB_RESTARTED,
                new JobData.Restarted("jobset", "in-place", 1, null, null, 3, null)));
        assertThat(d.lastIncident().causeDetail()).isEqualTo("JobSet in-place restart attempt 1");
        d.progress("10:06:00", 401);
        // A recreation numbered 1 is another counter: it is not taken for the in-place attempt 1.
        restarted("10:07:00", 1, 0);
        assertThat(d.incidents()).hasSize(2);
    }
}
