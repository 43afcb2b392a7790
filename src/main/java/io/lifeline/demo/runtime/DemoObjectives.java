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
 * vision team keeps 80 % ETTR over 7 days: its job trains at about 90 %, met) and {@value #RESEARCH} (research keeps
 * 99 % over 7 days: its two spot jobs block 7 to 8 % of their time on checkpoints alone and lose more to spot
 * reclaims, so they burn the budget at 7x or more, past the slow-burn threshold of 6x, from the first minutes).
 * They are put in force only while nothing is configured or stored, and are not stored.
 *
 * <p>A budget accrues with the time held, and the book counts a job from its first sample: a research objective born
 * with the fleet would be spent within minutes (exhausted, not burning). So the objectives start with a recorded week
 * before the fleet started, up to six hours before it (so the burn-rate windows read the live fleet only): each team's
 * jobs at their full size, research at 99.5 % ETTR, vision at 97 %. Against that week the research budget lasts
 * about half a day at the live pace, and the page shows it burning with its hours to exhaustion. That week is
 * invented for the demo, as the fleet is; docs/demo.md says so.
 */
@ApplicationScoped
public class DemoObjectives {

    static final String RESEARCH = "research-ettr";
    static final String VISION = "vision-ettr";

    /** The recorded week ends this long before the start: the longest burn-rate window reads the live fleet only. */
    static final Duration HISTORY_GAP = Duration.ofHours(6);

    /** The week before, at hourly samples: the window of both objectives. */
    static final Duration HISTORY = Duration.ofDays(7);

    /** A team's jobs in the recorded week: its namespace, GPUs held and ETTR. */
    record Team(String namespace, int gpus, double ettr) {}

    /** The research jobs at their maximum (16 + 8 nodes of 8 GPUs) and vision's (8 nodes of 8). */
    static final List<Team> WEEK_BEFORE = List.of(new Team("research", 192, 0.995), new Team("vision", 64, 0.97));

    private final ObjectiveService objectives;
    private final Clock clock;

    DemoObjectives(ObjectiveService objectives, Clock clock) {
        this.objectives = objectives;
        this.clock = clock;
    }

    /** Puts the two objectives in force with their recorded week, unless objectives are configured or stored. */
    boolean install() {
        return objectives.useByDefault(objectives(), history(clock.instant()));
    }

    static List<ObjectiveStore.Stored> objectives() {
        return List.of(
                new ObjectiveStore.Stored(VISION, "namespace:vision", 0.80, "7d", null, null),
                new ObjectiveStore.Stored(RESEARCH, "namespace:research", 0.99, "7d", null, null));
    }

    /**
     * Hourly cumulative samples of one job per team ({@code <namespace>/week-before-demo}) over the week ending
     * {@link #HISTORY_GAP} before {@code now}: productive at the team's ETTR, the rest blocked on checkpoints. The
     * name is not a live job's, so the fleet's own jobs count from their first sample as always.
     */
    static SortedMap<Instant, List<JobSample>> history(Instant now) {
        SortedMap<Instant, List<JobSample>> out = new TreeMap<>();
        Instant end = now.minus(HISTORY_GAP).truncatedTo(java.time.temporal.ChronoUnit.HOURS);
        long hours = HISTORY.toHours() - HISTORY_GAP.toHours() - 1;
        for (long h = 0; h <= hours; h++) {
            Instant at = end.minus(Duration.ofHours(hours - h));
            List<JobSample> jobs = new ArrayList<>();
            for (Team t : WEEK_BEFORE) {
                long held = h * t.gpus() * 3_600_000L;
                long productive = Math.round(held * t.ettr());
                Map<Bucket, Long> millis = new EnumMap<>(Bucket.class);
                millis.put(Bucket.PRODUCTIVE, productive);
                millis.put(Bucket.CHECKPOINT, held - productive);
                jobs.add(new JobSample(
                        t.namespace() + "/week-before-demo",
                        t.namespace(),
                        null,
                        null,
                        millis,
                        Map.<IncidentCause, Double>of(),
                        null));
            }
            out.put(at, jobs);
        }
        return out;
    }
}
