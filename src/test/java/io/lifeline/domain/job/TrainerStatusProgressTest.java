package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.inbound.hang.HangDetector;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A TrainJob's {@code trainerStatus} as the job's progress when the trainers report none of their own: it moves the
 * job, dates its freshness and, when it stalls, is judged as a hang at the resolution of its reports; once the agent
 * reports, the agent is trusted and the status is only shown.
 */
class TrainerStatusProgressTest {

    private final JobDriver d = new JobDriver("ml/hf-finetune");

    private JobDriver status(String hms, Integer percent, TrainerData.Metric... metrics) {
        return d.apply(d.event(hms, EventType.TRAINER_STATUS, report(hms, percent, null, metrics)));
    }

    private static TrainerData.StatusReport report(
            String hms, Integer percent, Long step, TrainerData.Metric... metrics) {
        return new TrainerData.StatusReport(JobDriver.at(hms), percent, 600L, step, null, null, List.of(metrics));
    }

    private void submittedAndAdmitted() {
        d.submit("10:00:00", 2, 2, 8, null).admit("10:00:00");
    }

    @Test
    void aJobWithoutTheAgentTrainsAndIsDatedByItsStatusReports() {
        submittedAndAdmitted();
        assertThat(d.detail().progress().source()).isEqualTo(ProgressView.NONE);

        status("10:01:00", 3, new TrainerData.Metric("loss", "0.2347"));

        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        ProgressView p = d.detail().progress();
        assertThat(p.source()).isEqualTo(ProgressView.TRAINJOB_STATUS);
        assertThat(p.why()).contains("no trainer.progress").contains("trainerStatus");
        assertThat(p.percent()).isEqualTo(3);
        assertThat(p.remainingSeconds()).isEqualTo(600L);
        assertThat(p.metrics()).containsExactly(new TrainerData.Metric("loss", "0.2347"));
        assertThat(d.detail().summary().lastProgressAt()).isEqualTo(JobDriver.at("10:01:00"));
        // No step was reported, and none is made up.
        assertThat(d.detail().summary().lastStep()).isNull();

        d.now("10:11:00");
        // No checkpoint: the training since the first report is unprotected.
        assertThat(d.freshness().ageMillis()).isEqualTo(600_000L);
        assertThat(d.goodput().productiveMillis()).isPositive();
    }

    @Test
    void aReportThatIsNotNewerMovesNothing() {
        submittedAndAdmitted();
        status("10:01:00", 3);
        status("10:02:00", 5);
        d.apply(d.event("10:03:00", EventType.TRAINER_STATUS, report("10:01:30", 4, null)));

        assertThat(d.detail().summary().lastProgressAt()).isEqualTo(JobDriver.at("10:02:00"));
        assertThat(d.detail().progress().percent()).isEqualTo(5);
    }

    @Test
    void aStepNamedByAMetricIsTheJobsStep() {
        submittedAndAdmitted();
        d.apply(d.event("10:01:00", EventType.TRAINER_STATUS, report("10:01:00", 10, 1200L)));

        assertThat(d.detail().summary().lastStep()).isEqualTo(1200L);
        assertThat(d.detail().progress().statusStep()).isEqualTo(1200L);
    }

    @Test
    void aStalledStatusIsAHangOfKindStatusThatNamesNoRank() {
        submittedAndAdmitted();
        for (String t : List.of("10:01:00", "10:02:00", "10:03:00", "10:04:00")) {
            status(t, 10);
        }
        // Three 60 s intervals: 4 x 60 s = 240 s.
        d.now("10:07:59");
        HangVerdict ok = d.jobs.hang(d.job).orElseThrow();
        assertThat(ok.state()).isEqualTo(HangVerdict.OK);
        assertThat(ok.thresholdSeconds()).isEqualTo(240);
        assertThat(d.jobs.hangSuspects()).isEmpty();

        d.now("10:08:01");
        HangVerdict v = d.jobs.hang(d.job).orElseThrow();
        assertThat(v.suspected()).isTrue();
        assertThat(v.kind()).isEqualTo("status");
        assertThat(v.since()).isEqualTo(JobDriver.at("10:04:00"));
        assertThat(v.basis()).contains("interval between status reports 60 s");
        // It claims no more than the status measured: no rank, node or phase.
        assertThat(v.suspects()).isEmpty();
        assertThat(v.phase()).isNull();
        assertThat(v.ranksReporting()).isZero();
        assertThat(v.evidence()).singleElement().asString().contains("names no rank or node");
        assertThat(d.jobs.hangSuspects()).extracting(e -> e.getKey()).containsExactly(d.job);

        // The detector's event opens the hang incident; the next report ends it.
        d.apply(HangDetector.event(d.job, v, JobDriver.at("10:08:01")));
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.HANG);
        status("10:09:00", 11);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void beforeTwoIntervalsTheStartUpThresholdApplies() {
        submittedAndAdmitted();
        status("10:01:00", 1);
        d.now("10:10:00");
        HangVerdict v = d.jobs.hang(d.job).orElseThrow();
        assertThat(v.state()).isEqualTo(HangVerdict.OK);
        assertThat(v.thresholdSeconds()).isEqualTo(600);
        d.now("10:11:01");
        assertThat(d.jobs.hang(d.job).orElseThrow().suspected()).isTrue();
    }

    @Test
    void aRunReportedCompleteIsNotHung() {
        submittedAndAdmitted();
        status("10:01:00", 99);
        status("10:02:00", 99);
        status("10:03:00", 100);
        d.now("12:00:00");
        assertThat(d.jobs.hang(d.job).orElseThrow().state()).isEqualTo(HangVerdict.OK);
    }

    @Test
    void theAgentIsTrustedFromItsFirstReportAndTheStatusIsOnlyShown() {
        submittedAndAdmitted();
        // The status runs ahead of the agent (another clock): the agent still takes over.
        status("10:05:00", 3);
        d.progress("10:04:00", 10);
        assertThat(d.detail().progress().source()).isEqualTo(ProgressView.AGENT);
        assertThat(d.detail().summary().lastStep()).isEqualTo(10L);
        assertThat(d.detail().summary().lastProgressAt()).isEqualTo(JobDriver.at("10:04:00"));

        d.apply(d.event("10:06:00", EventType.TRAINER_STATUS, report("10:06:00", 40, 999L)));
        assertThat(d.detail().summary().lastStep()).isEqualTo(10L);
        assertThat(d.detail().summary().lastProgressAt()).isEqualTo(JobDriver.at("10:04:00"));
        assertThat(d.detail().progress().percent()).isEqualTo(40);
        assertThat(d.detail().progress().why()).contains("trusted over the TrainJob's trainerStatus");

        // No heartbeats from this agent: the status does not stand in for them.
        d.now("11:00:00");
        HangVerdict v = d.jobs.hang(d.job).orElseThrow();
        assertThat(v.state()).isEqualTo(HangVerdict.UNKNOWN);
        assertThat(d.jobs.hangSuspects()).isEmpty();
    }

    @Test
    void theTrustedSourceOutlivesARestoreOfTheModel() {
        submittedAndAdmitted();
        d.progress("10:01:00", 10);
        Jobs restored = new Jobs(d.nodes, d.clock, JobsConfig.defaults());
        restored.restore(d.jobs.save());
        restored.apply(d.event("10:02:00", EventType.TRAINER_STATUS, report("10:02:00", 40, 999L)));

        JobDetail detail = restored.detail(d.job).orElseThrow();
        assertThat(detail.progress().source()).isEqualTo(ProgressView.AGENT);
        assertThat(detail.summary().lastStep()).isEqualTo(10L);
    }
}
