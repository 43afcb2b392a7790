package io.lifeline.demo.runtime;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.objective.store.ObjectiveStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The demo's two goodput objectives, so that the quick start shows the Objectives page full: {@value #VISION} (the
 * vision team keeps 80 % ETTR over 7 days; its job trains at about 94 %: met) and {@value #RESEARCH} (research keeps
 * 99 % over 30 days; its spot jobs lose much of their time to spot reclaims, llama3-70b keeping about 62 % ETTR and
 * mixtral about 87 % over the demo's first 90 minutes, and even a half hour without a reclaim blocks 7 to 8 % of their
 * time on checkpoints: a burn of 7x at the least, about 29x at the measured pace, past the slow threshold of 6x and
 * mostly past the fast one of 14.4x). They are put in force only while nothing is configured or stored, and are not
 * stored.
 *
 * <p>A budget accrues with the time held, and the book counts a job from its first sample: a research objective born
 * with the fleet would be spent within minutes (exhausted, not burning). So each objective starts with a recorded
 * window before the fleet started, up to six hours before it (so the burn-rate windows read the live fleet only):
 * one job per team at the team's full size, research at 99.8 % ETTR for 30 days, vision at 97 % for 7. Against that
 * month the research budget lasts about a day at the measured pace, and the page shows it burning with its hours to
 * exhaustion. That history is invented for the demo, as the fleet is; docs/demo.md says so.
 */
@ApplicationScoped
public class DemoObjectives {

    static final String RESEARCH = "research-ettr";
    static final String VISION = "vision-ettr";

    /** The recorded history ends this long before the start: the longest burn-rate window reads the live fleet only. */
    static final Duration HISTORY_GAP = Duration.ofHours(6);

    /**
     * A team's jobs in the recorded history: its namespace, GPUs held, ETTR, and how far back the history goes (its
     * objective's window).
     */
    record Team(String namespace, int gpus, double ettr, Duration history) {}

    /** The research jobs at their maximum (16 + 8 nodes of 8 GPUs) and vision's (8 nodes of 8). */
    static final List<Team> RECORDED = List.of(
            new Team("research", 192, 0.998, Duration.ofDays(30)), new Team("vision", 64, 0.97, Duration.ofDays(7)));

    private final ObjectiveService objectives;
    private final Clock clock;

    DemoObjectives(ObjectiveService objectives, Clock clock) {
        this.objectives = objectives;
        this.clock = clock;
    }

    /** Puts the two objectives in force with their recorded history, unless objectives are configured or stored. */
    boolean install() {
        return objectives.useByDefault(objectives(), history(clock.instant()));
    }

    static List<ObjectiveStore.Stored> objectives() {
        return List.of(
                new ObjectiveStore.Stored(VISION, "namespace:vision", 0.80, "7d", null, null),
                new ObjectiveStore.Stored(RESEARCH, "namespace:research", 0.99, "30d", null, null));
    }

    /**
     * Hourly cumulative samples of one job per team ({@code <namespace>/before-demo}) over its history, ending
     * {@link #HISTORY_GAP} before {@code now}: productive at the team's ETTR, the rest blocked on checkpoints. The name
     * is not a live job's, so the fleet's own jobs count from their first sample as always.
     */
    static SortedMap<Instant, List<JobSample>> history(Instant now) {
        SortedMap<Instant, List<JobSample>> out = new TreeMap<>();
        Instant end = now.minus(HISTORY_GAP).truncatedTo(java.time.temporal.ChronoUnit.HOURS);
        for (Team t : RECORDED) {
            long hours = t.history().toHours() - HISTORY_GAP.toHours() - 1;
            for (long h = 0; h <= hours; h++) {
                long held = h * t.gpus() * 3_600_000L;
                long productive = Math.round(held * t.ettr());
                Map<Bucket, Long> millis = new EnumMap<>(Bucket.class);
                millis.put(Bucket.PRODUCTIVE, productive);
                millis.put(Bucket.CHECKPOINT, held - productive);
                out.computeIfAbsent(end.minus(Duration.ofHours(hours - h)), k -> new ArrayList<>())
                        .add(new JobSample(
                                t.namespace() + "/before-demo",
                                t.namespace(),
                                null,
                                null,
                                millis,
                                Map.<IncidentCause, Double>of(),
                                null));
            }
        }
        return out;
    }
}
