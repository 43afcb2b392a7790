package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentOutcome;
import org.junit.jupiter.api.Test;

/**
 * Stops and restarts that reach Lifeline after the recovery they belong to. torchelastic's records carry no time of
 * their own ({@code timestamp: 0}, or none): they are ordered by when torchrun recorded them (the agent wrapper stamps
 * that) or, failing that, by when they arrived, and they arrive after the trainers' own events (batched, gated behind
 * the job's submission, retried while Lifeline is away; a launch's last line is sent as it exits, while the next
 * launch of the job may already train). Such a report must not leave the job recovering with no recovery to come.
 */
class ReportedAfterRecoveryTest {

    /** One launch on n1 with a checkpoint at step 310; it stops at 10:06:00 and a new launch forms on n2. */
    private static JobDriver relaunchedOnN2() {
        return new JobDriver("team/llm")
                .runningOn(1, "10:00:00")
                .progress("10:05:00", 300)
                .checkpointStarted("10:05:30", "ck-310", 310, false)
                .checkpointCompleted("10:05:31", "ck-310", 310, 1, 1, false)
                .rendezvous("10:06:10", 0, 8, "n2")
                .progress("10:06:12", 0)
                .restored("10:06:20", "ck-310", 310)
                .progress("10:06:25", 320);
    }

    @Test
    void aFailureOfTheGroupBeforeTheCurrentRoundReportedLateStopsNothing() {
        JobDriver d = relaunchedOnN2();
        int incidents = d.incidents().size();
        assertThat(d.state()).isEqualTo(JobState.RUNNING);

        // The first launch's agent recorded its failure at 10:06:00; the line arrives now.
        d.workerFailed("10:06:00", 0, "n1").progress("10:06:40", 330).now("10:06:40");

        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.incidents()).hasSize(incidents);
        assertThat(d.jobs.jobsOn("n2")).containsExactly("team/llm");
        assertThat(d.jobs.jobsOn("n1")).isEmpty();
        assertThat(d.jobs.timeline("team/llm", null, null, null, 100)
                        .orElseThrow()
                        .entries())
                .as("the report stays on the timeline")
                .anyMatch(e -> "trainer.worker_failed".equals(e.type()));
    }

    /**
     * Without a time of its own (no wrapper: the line is stamped when it arrived) a late failure cannot be told from
     * a new one, and opens an incident; the trainers' steps a minute after it show they train, and end it.
     */
    @Test
    void aLateFailureStampedWhenItArrivedEndsOnceTheTrainersStillTrainAMinuteLater() {
        JobDriver d = relaunchedOnN2().progress("10:07:00", 380);
        d.workerFailed("10:07:40", 0, "n1").progress("10:07:50", 390);
        assertThat(d.state())
                .as("steps right after a stop may be ranks that missed it")
                .isEqualTo(JobState.RECOVERING);

        d.progress("10:08:45", 450).now("10:08:45");

        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(d.lastIncident().closedAt()).isEqualTo(JobDriver.at("10:08:45"));
    }

    /**
     * An agent's restart count, recorded while the first round formed, arriving after that round and the first steps:
     * a restart placed before the first round is part of forming it, not an interruption of the training that followed.
     */
    @Test
    void aRestartPlacedBeforeTheFirstRoundReportedAfterItDoesNotInterrupt() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:01:00", 100);

        d.restarted("09:59:58", 1);

        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.incidents()).isEmpty();
        assertThat(d.detail().agentRestarts()).isEqualTo(1);
        d.progress("10:01:10", 110);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    /**
     * A worker that crashes as its group starts, reported with its own time while the round came stamped on arrival
     * (a log shipper's batch): dated before the round, but the group has not trained since, so it is a stop.
     */
    @Test
    void aFailureDatedBeforeARoundThatHasNotTrainedYetStillStops() {
        JobDriver d = new JobDriver("team/llm")
                .runningOn(2, "10:00:00")
                .progress("10:05:00", 300)
                .rendezvous("10:06:05", 2, 8, "n1", "n2", "n3");
        assertThat(d.state()).isEqualTo(JobState.RESCALING);

        d.workerFailed("10:06:02", 3, "n1");

        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(d.incidents())
                .singleElement()
                .satisfies(i -> assertThat(i.workerFailures()).isEqualTo(1));
    }

    @Test
    void aRestartAfterTheCurrentRoundStillInterrupts() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:01:00", 100);

        d.restarted("10:02:00", 1);

        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(d.incidents()).hasSize(1);
    }
}
