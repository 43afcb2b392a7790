package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.StopLatency;
import io.lifeline.domain.job.incident.StopRequest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The eviction → stop time of an incident: from the request to stop the workers to the first sign they did. */
class EvictionStopTimeTest {

    private final JobDriver d = new JobDriver("ml/llm");

    @Test
    void aPodEvictionIsMeasuredToTheFirstWorkerExitAfterIt() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.podEvicted("10:30:00", "llm-worker-1", "n2");
        IncidentView waiting = d.lastIncident();
        assertThat(waiting.stopRequest()).isEqualTo(StopRequest.POD_EVICTION);
        assertThat(waiting.stopRequestedAt()).isEqualTo(JobDriver.at("10:30:00"));
        assertThat(waiting.evictionStopMillis()).isNull();

        d.workerFailed("10:30:42", 8, "n2").workerFailed("10:30:50", 9, "n2");
        IncidentView i = d.lastIncident();
        // 10:30:00 → 10:30:42; the second rank's exit does not move it
        assertThat(i.evictionStopMillis()).isEqualTo(42_000L);
        assertThat(i.workersStoppedAt()).isEqualTo(JobDriver.at("10:30:42"));
        assertThat(i.workersStoppedBy()).isEqualTo("trainer.worker_failed");
        assertThat(i.cause()).isEqualTo(IncidentCause.MANUAL);
    }

    @Test
    void aKueuePreemptionReportedAfterTheWorkersExitIsStillMeasuredFromItsOwnTime() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        // The trainer's report of the exit arrives first; Kueue's condition, with its earlier time, after it.
        d.workerFailed("11:00:25", 0, "n1");
        d.preempted("11:00:00");
        IncidentView i = d.lastIncident();
        assertThat(i.cause()).isEqualTo(IncidentCause.PREEMPTION);
        assertThat(i.stopRequest()).isEqualTo(StopRequest.WORKLOAD_PREEMPTION);
        assertThat(i.evictionStopMillis()).isEqualTo(25_000L);
    }

    @Test
    void aFailureBeforeTheRequestDoesNotAnswerIt() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.workerFailed("12:00:00", 3, "n1");
        d.podEvicted("12:00:10", "llm-worker-0", "n1");
        assertThat(d.lastIncident().evictionStopMillis()).isNull();
        // the agent restarts its workers 80 s after the eviction: the old ones have ended
        d.restarted("12:01:30", 1);
        IncidentView i = d.lastIncident();
        assertThat(i.evictionStopMillis()).isEqualTo(80_000L);
        assertThat(i.workersStoppedBy()).isEqualTo("trainer.restarted");
    }

    @Test
    void aNoticeDrivenDrainKeepsTheNoticesCauseAndMeasuresTheEviction() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.notice("13:00:00", "n1", NoticeKind.SPOT_RECLAIM, "13:02:00");
        d.podEvicted("13:00:30", "llm-worker-0", "n1");
        d.rendezvous("13:01:05", 2, 8, "n2");
        IncidentView i = d.lastIncident();
        assertThat(i.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(i.evictionStopMillis()).isEqualTo(35_000L);
        assertThat(i.workersStoppedBy()).isEqualTo("trainer.rendezvous");
    }

    @Test
    void aRequeueIsMeasuredToTheJobsEndWhenNothingElseShowedTheStop() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.requeued("14:00:00");
        assertThat(d.lastIncident().stopRequest()).isEqualTo(StopRequest.WORKLOAD_REQUEUE);
        d.finished("14:03:00", JobData.Outcome.CANCELLED);
        IncidentView i = d.lastIncident();
        assertThat(i.evictionStopMillis()).isEqualTo(180_000L);
        assertThat(i.workersStoppedBy()).isEqualTo("job.finished");
    }

    @Test
    void anIncidentWithoutARequestHasNoEvictionStopTime() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.workerFailed("10:30:00", 1, "n1").restarted("10:30:20", 1);
        IncidentView i = d.lastIncident();
        assertThat(i.stopRequest()).isNull();
        assertThat(i.evictionStopMillis()).isNull();
    }

    @Test
    void theTimeSurvivesASaveAndRestoreOfTheModel() {
        d.runningOn(2, "10:00:00").progress("10:20:00", 400);
        d.podEvicted("10:30:00", "llm-worker-1", "n2").workerFailed("10:30:07", 8, "n2");
        Jobs restored = new Jobs(d.nodes, d.clock, JobsConfig.defaults());
        restored.restore(d.jobs.save());
        IncidentView i = restored.incidents("ml/llm").orElseThrow().get(0);
        assertThat(i.evictionStopMillis()).isEqualTo(7_000L);
        assertThat(restored.save()).isEqualTo(d.jobs.save());
    }

    @Test
    void stopsSeenBeforeTheRequestAreMatchedEarliestFirst() {
        Instant t = Instant.parse("2024-05-01T10:00:00Z");
        StopLatency seen = StopLatency.NONE
                .workersStopped(t.plusSeconds(40), "a")
                .workersStopped(t.plusSeconds(5), "b")
                .workersStopped(t.plusSeconds(90), "c");
        // a request at +0 is answered by the earliest stop after it (+5)
        assertThat(seen.requested(StopRequest.POD_EVICTION, t).millis()).isEqualTo(5_000L);
        // a request at +30: the earliest (+5) came before it; the latest (+90) answers it
        StopLatency later = seen.requested(StopRequest.POD_EVICTION, t.plusSeconds(30));
        assertThat(later.millis()).isEqualTo(60_000L);
        assertThat(later.stoppedBy()).isEqualTo("c");
        // a request after every stop seen waits for the next
        StopLatency waiting = seen.requested(StopRequest.POD_EVICTION, t.plusSeconds(100));
        assertThat(waiting.millis()).isNull();
        assertThat(waiting.workersStopped(t.plusSeconds(99), "d").millis()).isNull();
        assertThat(waiting.workersStopped(t.plusSeconds(112), "e").millis()).isEqualTo(12_000L);
        // only the first request counts
        assertThat(waiting.requested(StopRequest.WORKLOAD_PREEMPTION, t.plusSeconds(101))
                        .request())
                .isEqualTo(StopRequest.POD_EVICTION);
    }
}
