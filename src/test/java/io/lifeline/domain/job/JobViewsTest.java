package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job list with its filters, the detail, and the paged timeline. */
class JobViewsTest {

    private final JobDriver d = new JobDriver("ml/llm");

    @Test
    void theListFiltersByNamespaceAndState() {
        d.runningOn(2, "10:00:00");
        d.apply(d.event(
                "cv/resnet",
                "10:00:00",
                io.lifeline.domain.event.EventType.JOB_SUBMITTED,
                new io.lifeline.domain.event.JobData.Submitted("cv", "bob", null, null, 4, null)));
        assertThat(d.jobs.list(JobFilter.all())).extracting(JobSummary::name).containsExactly("cv/resnet", "ml/llm");
        assertThat(d.jobs.list(new JobFilter("ml", null, null)))
                .extracting(JobSummary::name)
                .containsExactly("ml/llm");
        assertThat(d.jobs.list(new JobFilter(null, JobState.PENDING, null)))
                .extracting(JobSummary::name)
                .containsExactly("cv/resnet");
        assertThat(d.jobs.list(new JobFilter("cv", JobState.RUNNING, null))).isEmpty();
        assertThat(d.jobs.detail("ml/nope")).isEmpty();
    }

    @Test
    void theDetailCarriesTheSpecAndTheCounters() {
        d.runningOn(2, "10:00:00");
        d.apply(d.applied().get(0));
        d.progress("09:59:00", 5);
        JobDetail detail = d.detail();
        assertThat(detail.owner()).isEqualTo("alice");
        assertThat(detail.priorityClass()).isEqualTo("high");
        assertThat(detail.elastic().maxNodes()).isEqualTo(2);
        assertThat(detail.gpusPerNode()).isEqualTo(8);
        assertThat(detail.checkpointIntervalSeconds()).isEqualTo(1800L);
        assertThat(detail.duplicatesDropped()).isEqualTo(1);
        assertThat(detail.lateEvents()).isEqualTo(1);
        assertThat(detail.summary().gpusHeld()).isEqualTo(16);
        assertThat(detail.summary().lastStep()).isEqualTo(0);
        assertThat(detail.samplesPerSecond()).isEqualTo(120.0);
    }

    @Test
    void aCpuJobHoldsNoGpusAndAccruesNoGpuHours() {
        d.apply(d.event(
                        "10:00:00",
                        io.lifeline.domain.event.EventType.JOB_SUBMITTED,
                        new io.lifeline.domain.event.JobData.Submitted(
                                "ml", "alice", null, new io.lifeline.domain.event.ElasticPolicy(1, 2, 1, 3), 0, 1800L)))
                .admit("10:00:00");
        assertThat(d.detail().summary().gpusHeld())
                .as("admitted, before its first round")
                .isZero();
        d.rendezvous("10:00:00", 1, 1, "n1", "n2").progress("10:00:00", 0);
        d.progress("10:30:00", 100).now("11:00:00");
        d.workerFailed("11:00:00", 0, "n1")
                .restarted("11:00:10", 1)
                .progress("11:05:00", 101)
                .now("11:30:00");

        JobDetail detail = d.detail();
        assertThat(detail.gpusPerNode()).isZero();
        assertThat(detail.summary().worldSize()).isEqualTo(2);
        assertThat(detail.summary().gpusHeld()).isZero();
        assertThat(d.goodput().wallMillis()).isPositive();
        assertThat(d.goodput().heldGpuMillis()).isZero();
        assertThat(d.goodput().heldGpuHours()).isZero();
        assertThat(d.goodput().lostGpuHours()).isZero();
        assertThat(d.incidents())
                .isNotEmpty()
                .allSatisfy(i -> assertThat(i.lostGpuHours()).isZero());
    }

    @Test
    void aJobWhoseSpecIsNotKnownIsTakenToHoldOneGpuPerRank() {
        d.admit("10:00:00")
                .rendezvous("10:00:00", 1, 4, "n1", "n2")
                .progress("10:00:00", 0)
                .now("10:30:00");

        assertThat(d.detail().summary().gpusHeld()).isEqualTo(8);
        assertThat(d.goodput().heldGpuMillis()).isPositive();
    }

    @Test
    void theTimelinePagesInTimeOrderWithACursor() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "c1", 1, false).checkpointCompleted("10:10:30", "c1", 1, 30, 30, false);
        d.workerFailed("10:20:00", 0, "n1").restarted("10:20:10", 1).progress("10:21:00", 2);
        // a late event: it is listed at its own time
        d.checkpointVerified("10:11:00", "c1", true);

        List<TimelineEntry> all =
                d.jobs.timeline("ml/llm", null, null, null, 1000).orElseThrow().entries();
        assertThat(all).isSortedAccordingTo((a, b) -> a.time().compareTo(b.time()));
        assertThat(all)
                .extracting(TimelineEntry::type)
                .contains(
                        "job.submitted",
                        "PENDING->RUNNING",
                        "trainer.checkpoint.verified",
                        "SOFTWARE_ERROR",
                        "RECOVERED");
        assertThat(all).noneMatch(e -> e.type().equals("trainer.progress"));

        List<TimelineEntry> paged = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            TimelinePage p = d.jobs.timeline("ml/llm", null, null, cursor, 3).orElseThrow();
            paged.addAll(p.entries());
            cursor = p.nextCursor();
            pages++;
        } while (cursor != null);
        assertThat(paged).isEqualTo(all);
        assertThat(pages).isEqualTo((all.size() + 2) / 3);
    }

    @Test
    void aTimeRangeReturnsItsEntriesAndTheIncidentsOverlappingIt() {
        d.runningOn(2, "10:00:00");
        d.workerFailed("10:20:00", 0, "n1").restarted("10:20:10", 1).progress("10:21:00", 2);
        d.workerFailed("12:00:00", 0, "n2");
        TimelinePage p = d.jobs.timeline("ml/llm", JobDriver.at("10:20:05"), JobDriver.at("11:00:00"), null, 100)
                .orElseThrow();
        assertThat(p.entries())
                .allMatch(e ->
                        !e.time().isBefore(JobDriver.at("10:20:05")) && e.time().isBefore(JobDriver.at("11:00:00")));
        assertThat(p.entries()).extracting(TimelineEntry::incidentId).contains("ml/llm#1");
        assertThat(p.incidents()).extracting(IncidentView::id).containsExactly("ml/llm#1");
        assertThat(p.nextCursor()).isNull();
    }
}
