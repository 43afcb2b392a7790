package io.lifeline.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.metrics.SeriesSnapshot.IncidentSample;
import io.lifeline.metrics.SeriesSnapshot.JobSample;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pieces behind the series: source families, monotonic job counters, series removal, bounded action labels. */
class MetricsUnitsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");

    @Test
    void sourceFamilyIsTheFirstSegment() {
        assertThat(IngestMetrics.family("dcgm/ip-10-0-3-17.ec2.internal")).isEqualTo("dcgm");
        assertThat(IngestMetrics.family("k8s/prod-east")).isEqualTo("k8s");
        assertThat(IngestMetrics.family("aws/eventbridge/us-east-1")).isEqualTo("aws");
        assertThat(IngestMetrics.family("urn:lifeline:demo")).isEqualTo("urn");
        assertThat(IngestMetrics.family("//Trainer/ml")).isEqualTo("trainer");
        assertThat(IngestMetrics.family("weird source/x")).isEqualTo("other");
        assertThat(IngestMetrics.family("/")).isEqualTo("other");
        assertThat(IngestMetrics.family("a".repeat(40))).isEqualTo("other");
    }

    @Test
    void sourceFamiliesAreCappedSoCardinalityStaysBounded() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IngestMetrics m = new IngestMetrics(registry);
        for (int i = 0; i < 100; i++) {
            m.accepted(List.of(event("family" + i + "/x")));
        }
        long families = registry.find("lifeline_ingest_events").counters().stream()
                .map(c -> c.getId().getTag("source"))
                .distinct()
                .count();
        assertThat(families).isEqualTo(IngestMetrics.MAX_FAMILIES);
        double other = registry.find("lifeline_ingest_events")
                .tag("source", "other")
                .tag("type", "job.submitted")
                .counter()
                .count();
        assertThat(other).isEqualTo(100 - (IngestMetrics.MAX_FAMILIES - 1));
    }

    @Test
    void lostGpuHoursGrowMonotonicallyWhileOldIncidentsDropOut() {
        JobCounters c = new JobCounters();
        c.update(job(T0, List.of(incident("j#1", IncidentCause.SPOT_RECLAIM, 2.0))));
        c.update(job(
                T0,
                List.of(
                        incident("j#1", IncidentCause.SPOT_RECLAIM, 3.0),
                        incident("j#2", IncidentCause.GPU_FAULT, 1.0))));
        // j#1 dropped out of the model's ring: what it lost stays counted.
        c.update(job(T0, List.of(incident("j#2", IncidentCause.GPU_FAULT, 1.5))));
        assertThat(c.lostGpuHours())
                .containsEntry(IncidentCause.SPOT_RECLAIM, 3.0)
                .containsEntry(IncidentCause.GPU_FAULT, 1.5);
    }

    @Test
    void countersStartAgainForANewIncarnationOfTheJob() {
        JobCounters c = new JobCounters();
        c.update(job(T0, List.of(incident("j#1", IncidentCause.SPOT_RECLAIM, 2.0))));
        c.update(job(T0.plusSeconds(3600), List.of(incident("j#1", IncidentCause.MANUAL, 0.5))));
        assertThat(c.lostGpuHours()).containsOnlyKeys(IncidentCause.MANUAL).containsEntry(IncidentCause.MANUAL, 0.5);
    }

    @Test
    void goodputCountersSplitTheElapsedTimeAndNeverGoDown() {
        JobCounters c = new JobCounters();
        // 100 s: 70 productive, 10 checkpoint, 20 waiting.
        c.update(goodput(T0, 100_000, 70_000, 10_000, 0, 20_000));
        assertThat(c.elapsedMillis()).isEqualTo(100_000);
        assertThat(c.goodputMillis()).isEqualTo(70_000);
        assertThat(c.badputMillis())
                .containsEntry(Badput.CHECKPOINT, 10_000L)
                .containsEntry(Badput.WAITING, 20_000L)
                .containsEntry(Badput.LOST_REWORK, 0L)
                .hasSize(Badput.values().length);
        assertThat(c.goodputMillis()
                        + c.badputMillis().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                .isEqualTo(c.elapsedMillis());
        // An interruption moves 30 s of progress to lost rework: goodput keeps its 70 s, lost rework grows.
        c.update(goodput(T0, 110_000, 40_000, 10_000, 40_000, 20_000));
        assertThat(c.goodputMillis()).isEqualTo(70_000);
        assertThat(c.badputMillis()).containsEntry(Badput.LOST_REWORK, 40_000L);
        assertThat(c.elapsedMillis()).isEqualTo(110_000);
        // A new job under the same name starts from zero.
        c.update(goodput(T0.plusSeconds(3600), 5_000, 1_000, 0, 0, 4_000));
        assertThat(c.goodputMillis()).isEqualTo(1_000);
        assertThat(c.elapsedMillis()).isEqualTo(5_000);
    }

    private static JobSample goodput(
            Instant submitted, long wall, long productive, long checkpoint, long lost, long waiting) {
        long[] ms = new long[Bucket.values().length];
        ms[Bucket.PRODUCTIVE.ordinal()] = productive;
        ms[Bucket.CHECKPOINT.ordinal()] = checkpoint;
        ms[Bucket.LOST_REWORK.ordinal()] = lost;
        ms[Bucket.WAITING.ordinal()] = waiting;
        GoodputView g = GoodputView.of(ms, new long[Bucket.values().length]);
        assertThat(g.wallMillis()).isEqualTo(wall);
        JobSample j = job(submitted, List.of());
        return new JobSample(
                j.name(),
                j.namespace(),
                j.submittedAt(),
                j.state(),
                j.checkpointAgeSeconds(),
                j.objectiveSeconds(),
                j.breached(),
                j.workAtRiskGpuHours(),
                j.worldSize(),
                j.minWorldSize(),
                j.maxWorldSize(),
                j.gpus(),
                j.ettr(),
                j.ettrOfWall(),
                j.restarts(),
                j.budgetExhausted(),
                j.openIncidentCause(),
                j.interruptionsByCause(),
                j.incidents(),
                j.nodes(),
                g);
    }

    @Test
    void noticeLedInterruptionsAreCountedOnceEach() {
        JobCounters c = new JobCounters();
        IncidentSample saved = new IncidentSample("j#1", IncidentCause.SPOT_RECLAIM, 0.1, true, true, true);
        IncidentSample lost = new IncidentSample("j#2", IncidentCause.SPOT_RECLAIM, 0.1, true, true, false);
        c.update(job(T0, List.of(saved)));
        c.update(job(T0, List.of(saved, lost)));
        c.update(job(T0, List.of(saved, lost)));
        assertThat(c.noticesCheckpointed()).isEqualTo(1);
        assertThat(c.noticesNotCheckpointed()).isEqualTo(1);
    }

    @Test
    void seriesOfAJobThatLeftTheModelAreRemoved() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SeriesFamily f = new SeriesFamily(registry, "lifeline_job_world_size", "ranks", SeriesFamily.Kind.GAUGE);
        f.publish(Map.of(Tags.of("job_name", "a/x"), 8.0, Tags.of("job_name", "a/y"), 16.0));
        assertThat(registry.find("lifeline_job_world_size").gauges()).hasSize(2);
        f.publish(Map.of(Tags.of("job_name", "a/y"), 24.0));
        assertThat(registry.find("lifeline_job_world_size").gauges()).hasSize(1);
        assertThat(registry.find("lifeline_job_world_size")
                        .tag("job_name", "a/y")
                        .gauge()
                        .value())
                .isEqualTo(24.0);
    }

    @Test
    void actionLabelsAreBoundedAndNormalised() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ActionMetrics m = new ActionMetrics(registry);
        m.actionFinished("DRAIN", "FAILED", Duration.ofSeconds(42));
        m.actionFinished("not-an-action", "failed", Duration.ofSeconds(1));
        for (int i = 0; i < 40; i++) {
            m.actionFinished("drain", "outcome-" + i, Duration.ofSeconds(1));
        }
        m.policyDecision("fatal-xid-drain", "DRY_RUN");
        assertThat(registry.find("lifeline_actions")
                        .tag("kind", "drain")
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.find("lifeline_action_duration")
                        .tag("kind", "drain")
                        .tag("outcome", "failed")
                        .timer()
                        .totalTime(java.util.concurrent.TimeUnit.SECONDS))
                .isEqualTo(42.0);
        assertThat(registry.find("lifeline_actions")
                        .tag("kind", "other")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        long outcomes = registry.find("lifeline_actions").counters().stream()
                .map(c -> c.getId().getTag("outcome"))
                .distinct()
                .count();
        assertThat(outcomes).isLessThanOrEqualTo(ActionMetrics.MAX_VALUES + 1);
        assertThat(registry.find("lifeline_policy_decisions")
                        .tag("policy", "fatal-xid-drain")
                        .tag("mode", "dry-run")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    private static JobSample job(Instant submitted, List<IncidentSample> incidents) {
        return new JobSample(
                "ns/j",
                "ns",
                submitted,
                JobState.RUNNING,
                10.0,
                3600.0,
                false,
                0.1,
                16,
                8,
                16,
                16,
                0.9,
                0.8,
                0,
                false,
                null,
                Map.of(),
                incidents,
                List.of(),
                GoodputView.EMPTY);
    }

    private static IncidentSample incident(String id, IncidentCause cause, double lost) {
        return new IncidentSample(id, cause, lost, false, true, false);
    }

    private static Event event(String source) {
        return new Event(
                "id",
                source,
                EventType.JOB_SUBMITTED,
                "ns/j",
                T0,
                new JobData.Submitted("ns", null, null, null, 8, null));
    }
}
