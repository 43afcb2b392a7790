package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.ModelReads;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.fleet.SavedFleet;
import io.lifeline.domain.job.history.HistoryRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * For random streams of every job event kind and node signal, including late and redelivered events, and with bounds
 * small enough that every ring, history and the list of ended jobs overflows: saving the jobs at any point, restoring
 * them into a fresh model and applying the rest reads and hands over like applying everything to one model.
 */
class JobsRestorePropertiesTest {

    /** Tiny bounds: 3 checkpoints and restores, 2 incidents, 6 timeline entries, 8 ids, 1 ended job, 2 rounds. */
    private static final JobsConfig SMALL = new JobsConfig(
            2.0, Duration.ofHours(1), Duration.ofMinutes(30), Duration.ofMinutes(5), 3, 3, 2, 6, 2, 4, 8, 2, 1, 5);

    @Provide
    Arbitrary<List<RandomStreams.Step>> streams() {
        return RandomStreams.steps(160);
    }

    @Property(tries = 300)
    void restoringAtAnyPointThenApplyingTheRestReadsTheSame(
            @ForAll("streams") List<RandomStreams.Step> steps,
            @ForAll @IntRange(min = 0, max = 1000) int permille,
            @ForAll boolean smallBounds) {
        List<Object> inputs = RandomStreams.build(steps);
        JobsConfig config = smallBounds ? SMALL : JobsConfig.defaults();
        Clock clock = Clock.fixed(RandomStreams.latest(inputs).plusSeconds(90), ZoneOffset.UTC);
        int cut = inputs.size() * permille / 1000;
        Jobs whole = new Jobs(RandomStreams.nodes(), clock, config);
        for (int i = 0; i < cut; i++) {
            RandomStreams.apply(whole, inputs.get(i));
            drainSometimes(whole, i, null);
        }
        SavedJobs saved = whole.save();
        Jobs restored = new Jobs(RandomStreams.nodes(), clock, config);
        restored.restore(saved);
        assertThat(restored.save()).isEqualTo(saved);
        List<Object> handedWhole = new ArrayList<>();
        List<Object> handedRestored = new ArrayList<>();
        for (int i = cut; i < inputs.size(); i++) {
            RandomStreams.apply(whole, inputs.get(i));
            RandomStreams.apply(restored, inputs.get(i));
            drainSometimes(whole, i, handedWhole);
            drainSometimes(restored, i, handedRestored);
        }
        handedWhole.addAll(whole.drainTimeline());
        handedWhole.addAll(whole.drainRecords());
        handedRestored.addAll(restored.drainTimeline());
        handedRestored.addAll(restored.drainRecords());
        ModelReads.of(null, whole).assertSameAs(ModelReads.of(null, restored), "cut " + cut + " of " + inputs.size());
        assertThat(handedRestored).isEqualTo(handedWhole);
        SavedFleet noFleet = new SavedFleet(0, List.of(), List.of());
        assertThat(ModelReads.canonical(noFleet, restored.save()))
                .isEqualTo(ModelReads.canonical(noFleet, whole.save()));
    }

    @Example
    void endedJobsAreForgottenInTheSameOrderAfterARestore() {
        JobDriver d = new JobDriver("a/first", JobsConfig.defaults().withMaxFinishedJobs(1));
        d.submit("10:00:00", 1, 2, 8, null).finished("10:05:00", JobData.Outcome.SUCCEEDED);
        d.apply(d.event(
                "b/second",
                "10:06:00",
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("b", "o", null, new ElasticPolicy(1, 2, 8, 0), 8, null)));
        Jobs restored = new Jobs(d.nodes, d.clock, JobsConfig.defaults().withMaxFinishedJobs(1));
        restored.restore(d.jobs.save());
        Event second = d.event(
                "b/second", "10:07:00", EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.FAILED, "x"));
        d.apply(second);
        restored.apply(second);
        assertThat(d.jobs.detail("a/first"))
                .as("forgotten, one ended job is kept")
                .isEmpty();
        assertThat(restored.detail("a/first")).isEmpty();
        assertThat(restored.details()).isEqualTo(d.jobs.details());
    }

    /** Hands history over after two events in three, as if the application had missed some. */
    private static void drainSometimes(Jobs jobs, int i, List<Object> into) {
        if (i % 3 == 2) {
            return;
        }
        List<JobTimelineEntry> t = jobs.drainTimeline();
        List<HistoryRecord> r = jobs.drainRecords();
        if (into != null) {
            into.addAll(t);
            into.addAll(r);
        }
    }
}
