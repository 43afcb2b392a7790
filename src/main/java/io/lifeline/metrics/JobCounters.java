package io.lifeline.metrics;

import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.metrics.SeriesSnapshot.IncidentSample;
import io.lifeline.metrics.SeriesSnapshot.JobSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Monotonic per-job counters derived from the model's views, which are not monotonic themselves: the model keeps a
 * bounded ring of incidents (old ones drop out), an open incident's cause can still change, and its lost GPU-hours
 * grow until it closes. Each incident's growth is added once, to the cause it had when it grew; each notice-led
 * interruption is counted once. Memory: the incident ids the model still retains for this job.
 *
 * <p>The goodput counters follow the model's buckets ({@link GoodputView}), which are not monotonic either: the
 * progress an interruption throws away was productive until then and moves to lost rework. Each counter keeps the
 * largest value it had (a Prometheus counter never goes down), so across such an interruption goodput plus badput
 * exceeds the elapsed time by the rework lost; the ETTR gauges are exact at every moment.
 */
final class JobCounters {

    private Instant incarnation;
    private final Map<String, Double> countedLost = new HashMap<>();
    private final Set<String> countedNotices = new HashSet<>();
    private final Map<IncidentCause, Double> lostGpuHours = new EnumMap<>(IncidentCause.class);
    private final Map<IncidentCause, Integer> interruptions = new EnumMap<>(IncidentCause.class);
    private int restarts;
    private long noticesCheckpointed;
    private long noticesNotCheckpointed;
    private long elapsedMillis;
    private long goodputMillis;
    private final Map<Badput, Long> badputMillis = new EnumMap<>(Badput.class);
    /** Incidents whose eviction → stop time was observed (retained ones only), and those measured since the last take. */
    private final Set<String> observedStops = new HashSet<>();

    private final List<IncidentSample> newStops = new ArrayList<>();

    /** Folds in the job's latest sample. */
    void update(JobSample job) {
        if (!Objects.equals(incarnation, job.submittedAt())) {
            // A new job under the same name: its counters start again (Prometheus sees a counter reset).
            incarnation = job.submittedAt();
            countedLost.clear();
            countedNotices.clear();
            lostGpuHours.clear();
            interruptions.clear();
            restarts = 0;
            noticesCheckpointed = 0;
            noticesNotCheckpointed = 0;
            elapsedMillis = 0;
            goodputMillis = 0;
            badputMillis.clear();
            observedStops.clear();
        }
        Set<String> retained = new HashSet<>();
        for (IncidentSample i : job.incidents()) {
            retained.add(i.id());
            double before = countedLost.getOrDefault(i.id(), 0.0);
            if (i.lostGpuHours() > before) {
                lostGpuHours.merge(i.cause(), i.lostGpuHours() - before, Double::sum);
                countedLost.put(i.id(), i.lostGpuHours());
            } else {
                countedLost.putIfAbsent(i.id(), before);
            }
            if (i.noticed() && i.stopped() && countedNotices.add(i.id())) {
                if (i.checkpointBeforeExit()) {
                    noticesCheckpointed++;
                } else {
                    noticesNotCheckpointed++;
                }
            }
        }
        for (IncidentSample i : job.incidents()) {
            if (i.evictionStopMillis() != null && i.stopRequest() != null && observedStops.add(i.id())) {
                newStops.add(i);
            }
        }
        observedStops.retainAll(retained);
        countedLost.keySet().retainAll(retained);
        countedNotices.retainAll(retained);
        job.interruptionsByCause().forEach((cause, n) -> interruptions.merge(cause, n, Math::max));
        restarts = Math.max(restarts, job.restarts());
        GoodputView g = job.goodput();
        elapsedMillis = Math.max(elapsedMillis, g.wallMillis());
        goodputMillis = Math.max(goodputMillis, g.productiveMillis());
        for (Badput kind : Badput.values()) {
            badputMillis.merge(kind, kind.millis(g), Math::max);
        }
    }

    /** The incidents whose eviction → stop time was measured since the previous call, each handed over once. */
    List<IncidentSample> takeNewStops() {
        if (newStops.isEmpty()) {
            return List.of();
        }
        List<IncidentSample> out = List.copyOf(newStops);
        newStops.clear();
        return out;
    }

    long elapsedMillis() {
        return elapsedMillis;
    }

    long goodputMillis() {
        return goodputMillis;
    }

    Map<Badput, Long> badputMillis() {
        return badputMillis;
    }

    Map<IncidentCause, Double> lostGpuHours() {
        return lostGpuHours;
    }

    Map<IncidentCause, Integer> interruptions() {
        return interruptions;
    }

    int restarts() {
        return restarts;
    }

    long noticesCheckpointed() {
        return noticesCheckpointed;
    }

    long noticesNotCheckpointed() {
        return noticesNotCheckpointed;
    }
}
