package io.lifeline.objective;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.runtime.ModelSnapshot;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Reads the objectives' samples off a model snapshot: one per job, with its price. */
final class ObjectiveSamples {

    private ObjectiveSamples() {}

    static List<JobSample> of(ModelSnapshot snapshot, SpotPrices prices) {
        List<JobSample> out = new ArrayList<>(snapshot.jobs().size());
        for (ModelSnapshot.JobSnapshot j : snapshot.jobs()) {
            JobDetail d = j.detail();
            JobSummary s = j.summary();
            GoodputView g = d.goodput() == null ? GoodputView.EMPTY : d.goodput();
            Map<IncidentCause, Double> lost = new EnumMap<>(IncidentCause.class);
            for (IncidentView v : j.incidents()) {
                if (v.cause() != null && v.lostGpuHours() > 0) {
                    lost.merge(v.cause(), v.lostGpuHours(), Double::sum);
                }
            }
            Double price = null;
            if (s.pool() != null || s.capacityType() != null) {
                price = prices.price(s.pool(), capacity(s.capacityType()));
            }
            out.add(new JobSample(s.name(), s.namespace(), d.owner(), s.pool(), gpuMillis(g), lost, price));
        }
        return out;
    }

    /**
     * GPU-milliseconds per bucket. The view keeps productive, lost (rework, hang, recovery) and held GPU time exactly,
     * and the other buckets in plain time: each group's GPU time is split over its buckets by their share of its
     * time, so the totals the budgets read are exact and only the split inside a group assumes a steady GPU count.
     */
    static Map<Bucket, Long> gpuMillis(GoodputView g) {
        Map<Bucket, Long> out = new EnumMap<>(Bucket.class);
        out.put(Bucket.PRODUCTIVE, g.productiveGpuMillis());
        long lost = g.lostGpuMillis();
        long other = Math.max(0, g.heldGpuMillis() - g.productiveGpuMillis() - lost);
        split(
                out,
                lost,
                new Bucket[] {
                    Bucket.LOST_REWORK,
                    Bucket.HANG,
                    Bucket.RECOVERY_DETECTION,
                    Bucket.RECOVERY_RESTART,
                    Bucket.RECOVERY_LOAD
                },
                new long[] {
                    g.lostReworkMillis(),
                    g.hangMillis(),
                    g.recoveryDetectionMillis(),
                    g.recoveryRestartMillis(),
                    g.recoveryLoadMillis()
                });
        split(out, other, new Bucket[] {Bucket.CHECKPOINT, Bucket.RESCALE, Bucket.STARTUP}, new long[] {
            g.checkpointMillis(), g.rescaleMillis(), g.startupMillis()
        });
        return out;
    }

    private static void split(Map<Bucket, Long> out, long total, Bucket[] buckets, long[] millis) {
        long sum = 0;
        for (long m : millis) {
            sum += m;
        }
        if (total <= 0) {
            return;
        }
        if (sum <= 0) {
            out.merge(buckets[0], total, Long::sum);
            return;
        }
        long given = 0;
        int last = -1;
        for (int i = 0; i < buckets.length; i++) {
            if (millis[i] > 0) {
                long v = (long) ((double) total * millis[i] / sum);
                out.merge(buckets[i], v, Long::sum);
                given += v;
                last = i;
            }
        }
        // Rounding leftovers go to the last bucket that had time, so the group's total stays exact.
        out.merge(buckets[last], total - given, Long::sum);
    }

    private static CapacityType capacity(String type) {
        if (type == null) {
            return null;
        }
        try {
            return CapacityType.fromWireName(type);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
