package io.lifeline.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TelemetrySamplerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private final MovableClock clock = new MovableClock(T0);
    private final TelemetrySampler sampler = new TelemetrySampler(Duration.ofMinutes(5), Duration.ofMinutes(30), clock);
    private int ids;

    private Event sample(String node, String uuid, Instant at) {
        return new Event(
                "s" + ids++,
                "test://dcgm",
                EventType.GPU_SAMPLE,
                node,
                at,
                new GpuData.Sample(
                        uuid, 0, "H100", 50.0, null, null, 40.0, null, null, null, null, null, null, null, null));
    }

    private Event progress(String job, Instant at) {
        return new Event(
                "p" + ids++,
                "test://trainer",
                EventType.TRAINER_PROGRESS,
                job,
                at,
                new TrainerData.Progress(ids, null, null));
    }

    @Test
    void aGpuSilentLongerThanForgetAfterIsForgottenAsOtherTelemetryArrives() {
        // Spot churn: a node's GPUs report, the node is reclaimed, new GPUs appear.
        for (int i = 0; i < 100; i++) {
            sampler.shouldStore(sample("old-node", "GPU-old-" + i, T0));
        }
        assertThat(sampler.size()).isEqualTo(100);
        clock.set(T0.plus(Duration.ofMinutes(31)));
        for (int round = 0; round < 60; round++) {
            for (int i = 0; i < 10; i++) {
                sampler.shouldStore(sample("new-node", "GPU-new-" + i, clock.instant()));
            }
        }
        assertThat(sampler.size()).isEqualTo(10);
    }

    @Test
    void underSteadyChurnTheMarksStayBoundedByWhatSpokeWithinForgetAfter() {
        // A new GPU every second, each sampling ten times over ten seconds, for six hours.
        for (int second = 0; second < 6 * 3600; second++) {
            clock.set(T0.plusSeconds(second));
            for (int k = 0; k < 10; k++) {
                int gpu = second - k;
                if (gpu >= 0) {
                    sampler.shouldStore(sample("n" + gpu / 8, "GPU-" + gpu, clock.instant()));
                }
            }
        }
        // About 30 minutes' worth of GPUs (1,800 + the ones the sweep has not reached yet), not 21,600.
        assertThat(sampler.size()).isBetween(1_800, 3_000);
    }

    @Test
    void aGpuStillReportingIsKeptAndSampledOncePerInterval() {
        int stored = 0;
        for (int minute = 0; minute < 120; minute++) {
            clock.set(T0.plus(Duration.ofMinutes(minute)));
            if (sampler.shouldStore(sample("n1", "GPU-live", clock.instant()))) {
                stored++;
            }
        }
        assertThat(sampler.size()).isEqualTo(1);
        assertThat(stored).isEqualTo(24);
    }

    @Test
    void aForgottenGpuThatSpeaksAgainIsStoredAtOnce() {
        assertThat(sampler.shouldStore(sample("n1", "GPU-a", T0))).isTrue();
        assertThat(sampler.shouldStore(sample("n1", "GPU-a", T0.plusSeconds(10))))
                .isFalse();
        clock.set(T0.plus(Duration.ofHours(1)));
        // The sweep reaches GPU-a while GPU-b reports.
        sampler.shouldStore(sample("n2", "GPU-b", clock.instant()));
        sampler.shouldStore(sample("n2", "GPU-b", clock.instant()));
        assertThat(sampler.size()).isEqualTo(1);
        assertThat(sampler.shouldStore(sample("n1", "GPU-a", clock.instant()))).isTrue();
    }

    @Test
    void nodeLifecycleEventsLeaveNoMarkAndAJobLifecycleAsksForItsNextProgress() {
        sampler.lifecycle(new Event(
                "r1", "test://kube", EventType.NODE_TERMINATED, "node-1", T0, new NodeData.Terminated("reclaimed")));
        assertThat(sampler.size()).isZero();
        assertThat(sampler.shouldStore(progress("ns/job", T0))).isTrue();
        assertThat(sampler.shouldStore(progress("ns/job", T0.plusSeconds(1)))).isFalse();
        sampler.lifecycle(new Event(
                "f1",
                "test://kube",
                EventType.JOB_UPDATED,
                "ns/job",
                T0.plusSeconds(2),
                new JobData.Updated(null, null, null, 600L)));
        assertThat(sampler.shouldStore(progress("ns/job", T0.plusSeconds(3)))).isTrue();
        assertThat(sampler.shouldStore(progress("ns/job", T0.plusSeconds(4)))).isFalse();
        assertThat(sampler.size()).isEqualTo(1);
    }

    @Test
    void aJobThatEndedIsForgottenOnceSilent() {
        sampler.shouldStore(progress("ns/ended", T0));
        sampler.lifecycle(new Event(
                "f2",
                "test://kube",
                EventType.JOB_FINISHED,
                "ns/ended",
                T0.plusSeconds(1),
                new JobData.Finished(JobData.Outcome.SUCCEEDED, "done")));
        clock.set(T0.plus(Duration.ofMinutes(45)));
        for (int i = 0; i < 4; i++) {
            sampler.shouldStore(progress("ns/running", clock.instant().plusSeconds(i)));
        }
        assertThat(sampler.size()).isEqualTo(1);
        assertThat(sampler.drainUnstored()).extracting(Event::subject).containsOnly("ns/running");
    }
}
