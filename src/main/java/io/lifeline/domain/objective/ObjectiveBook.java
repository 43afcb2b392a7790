package io.lifeline.domain.objective;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The goodput objectives and their budgets. Fed a sample of every job at a fixed pace (a minute), it adds what each
 * job did since the previous sample to the series of every objective whose scope holds the job, and reads budgets and
 * burn rates off those series. Work per sample is one pass over the jobs with a map lookup per scope kind, plus a
 * fixed number of slots per objective; memory is the series (fixed per objective) and one cumulative per job.
 *
 * <p>A job counts from its first sample on: what it did before (before Lifeline started, or before the job came into
 * a scope) is not charged to the current minute, which would read as a burst of burn. Not thread-safe; the answers of
 * {@link JobObjectives} are published at each sample and may be read from any thread.
 */
public final class ObjectiveBook implements JobObjectives {

    /** Objectives held at most: each holds a fixed series (about 160 KB). */
    public static final int MAX_OBJECTIVES = 200;

    /** Job names listed in a status. */
    public static final int MAX_LISTED_JOBS = 100;

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Map<ScopeKind, Map<String, List<Entry>>> index = new EnumMap<>(ScopeKind.class);
    private final Map<String, Cumulative> lastByJob = new HashMap<>();
    private BurnThresholds thresholds = BurnThresholds.defaults();
    private Instant sampledAt;

    private volatile Map<String, Double> targetByJob = Map.of();
    private volatile Set<String> burningJobs = Set.of();

    /** Sets the burn-rate thresholds. */
    public void thresholds(BurnThresholds t) {
        this.thresholds = java.util.Objects.requireNonNull(t);
    }

    public BurnThresholds thresholds() {
        return thresholds;
    }

    /**
     * Replaces the objectives. One that keeps its name and scope keeps its history (a new target or window reads the
     * same series); any other starts empty.
     *
     * @throws IllegalArgumentException when names repeat or there are more than {@link #MAX_OBJECTIVES}
     */
    public void configure(List<Objective> objectives) {
        if (objectives.size() > MAX_OBJECTIVES) {
            throw new IllegalArgumentException("at most " + MAX_OBJECTIVES + " objectives, got " + objectives.size());
        }
        Map<String, Entry> next = new LinkedHashMap<>();
        for (Objective o : objectives) {
            Entry old = entries.get(o.name());
            Entry e = old != null && o.sameSeries(old.objective) ? old.with(o) : new Entry(o);
            if (next.put(o.name(), e) != null) {
                throw new IllegalArgumentException("objective '" + o.name() + "' is named twice");
            }
        }
        entries.clear();
        entries.putAll(next);
        index.clear();
        for (Entry e : entries.values()) {
            index.computeIfAbsent(e.objective.scope().kind(), k -> new HashMap<>())
                    .computeIfAbsent(e.objective.scope().value(), k -> new ArrayList<>())
                    .add(e);
        }
        publish(sampledAt == null ? Instant.EPOCH : sampledAt);
    }

    /**
     * Checks a set as {@link #configure} would take it.
     *
     * @throws IllegalArgumentException when names repeat or there are more than {@link #MAX_OBJECTIVES}
     */
    public static void check(List<Objective> objectives) {
        if (objectives.size() > MAX_OBJECTIVES) {
            throw new IllegalArgumentException("at most " + MAX_OBJECTIVES + " objectives, got " + objectives.size());
        }
        Set<String> names = new HashSet<>();
        for (Objective o : objectives) {
            if (!names.add(o.name())) {
                throw new IllegalArgumentException("objective '" + o.name() + "' is named twice");
            }
        }
    }

    /** The objectives, in the order given. */
    public List<Objective> objectives() {
        return entries.values().stream().map(e -> e.objective).toList();
    }

    /**
     * Adds what each job did since its previous sample to the objectives that hold it. Jobs absent from {@code jobs}
     * are forgotten (a job back under the same name starts again from its next sample).
     */
    public void sample(Instant now, Collection<JobSample> jobs) {
        long at = now.toEpochMilli();
        Set<String> seen = new HashSet<>(jobs.size() * 2);
        for (Entry e : entries.values()) {
            e.jobs.clear();
        }
        for (JobSample j : jobs) {
            seen.add(j.job());
            Cumulative prev = lastByJob.get(j.job());
            Cumulative cur = Cumulative.of(j);
            lastByJob.put(j.job(), cur);
            List<Entry> holding = holding(j);
            if (holding.isEmpty()) {
                continue;
            }
            Tally d = prev == null ? null : cur.since(prev, j.pricePerGpuHour());
            for (Entry e : holding) {
                e.jobs.add(j.job());
                if (d != null) {
                    e.add(at, d);
                }
            }
        }
        lastByJob.keySet().retainAll(seen);
        sampledAt = now;
        publish(now);
    }

    private List<Entry> holding(JobSample j) {
        List<Entry> out = null;
        for (Map.Entry<ScopeKind, Map<String, List<Entry>>> k : index.entrySet()) {
            String key = ObjectiveScope.keyOf(k.getKey(), j);
            List<Entry> found = key == null ? null : k.getValue().get(key);
            if (found != null) {
                if (out == null) {
                    out = new ArrayList<>(found);
                } else {
                    out.addAll(found);
                }
            }
        }
        return out == null ? List.of() : out;
    }

    /** Every objective's status as of {@code now}, in the order given. */
    public List<ObjectiveStatus> statuses(Instant now) {
        List<ObjectiveStatus> out = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            out.add(status(e, now));
        }
        return out;
    }

    /** The objectives' series as plain values (the jobs' baselines are not kept: each counts again from its next sample). */
    public SavedBook save() {
        List<SavedSeries> out = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            out.add(new SavedSeries(
                    e.objective.name(),
                    e.objective.scope().toString(),
                    e.series.saveMinutes(),
                    e.series.saveHours(),
                    e.totals.heldMs,
                    e.totals.productiveNetMs,
                    e.totals.productiveShownMs));
        }
        return new SavedBook(names(Bucket.values()), names(IncidentCause.values()), out);
    }

    /**
     * Takes back the series of the objectives configured now that have the same name and scope as saved ones; the
     * others start empty. A state saved with other buckets or causes is ignored.
     *
     * @return how many objectives got their history back
     */
    public int restore(SavedBook saved) {
        if (saved == null
                || !names(Bucket.values()).equals(saved.buckets())
                || !names(IncidentCause.values()).equals(saved.causes())) {
            return 0;
        }
        int restored = 0;
        for (SavedSeries s : saved.series()) {
            Entry e = entries.get(s.name());
            if (e != null && e.objective.scope().toString().equals(s.scope())) {
                e.series.restore(s.minutes(), s.hours());
                e.totals.heldMs = s.heldMs();
                e.totals.productiveNetMs = s.productiveNetMs();
                e.totals.productiveShownMs = s.productiveShownMs();
                restored++;
            }
        }
        return restored;
    }

    private static List<String> names(Enum<?>[] values) {
        List<String> out = new ArrayList<>(values.length);
        for (Enum<?> v : values) {
            out.add(v.name());
        }
        return out;
    }

    /** The series of one objective (for the checks of its sums). */
    WindowSeries seriesFor(String name) {
        return entries.get(name).series;
    }

    /** One objective's status, or empty when there is none of that name. */
    public Optional<ObjectiveStatus> status(String name, Instant now) {
        Entry e = entries.get(name);
        return e == null ? Optional.empty() : Optional.of(status(e, now));
    }

    @Override
    public OptionalDouble ettrTarget(String job) {
        Double t = targetByJob.get(job);
        return t == null ? OptionalDouble.empty() : OptionalDouble.of(t);
    }

    @Override
    public boolean burning(String job) {
        return burningJobs.contains(job);
    }

    /** The objectives whose scope held {@code job} at the last sample. */
    public List<ObjectiveStatus> of(String job, Instant now) {
        List<ObjectiveStatus> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.jobs.contains(job)) {
                out.add(status(e, now));
            }
        }
        return out;
    }

    private void publish(Instant now) {
        Map<String, Double> targets = new HashMap<>();
        Set<String> burning = new HashSet<>();
        for (Entry e : entries.values()) {
            ObjectiveStatus s = status(e, now);
            boolean burns = s.state() == ObjectiveState.BURNING || s.state() == ObjectiveState.EXHAUSTED;
            for (String job : e.jobs) {
                targets.merge(job, e.objective.ettrTarget(), Math::max);
                if (burns) {
                    burning.add(job);
                }
            }
        }
        targetByJob = Map.copyOf(targets);
        burningJobs = Set.copyOf(burning);
    }

    private ObjectiveStatus status(Entry e, Instant now) {
        return Budgets.status(
                e.objective,
                e.series,
                now.toEpochMilli(),
                thresholds,
                sampledAt,
                e.jobs,
                GoodputView.MILLIS_PER_HOUR,
                e.totals.heldMs / 1000.0,
                e.totals.productiveShownMs / 1000.0);
    }

    /** One objective with its series and the jobs of its scope at the last sample. */
    private static final class Entry {
        final Objective objective;
        final WindowSeries series;
        final Set<String> jobs;
        final Totals totals;

        Entry(Objective objective) {
            this(objective, new WindowSeries(), new java.util.TreeSet<>(), new Totals());
        }

        private Entry(Objective objective, WindowSeries series, Set<String> jobs, Totals totals) {
            this.objective = objective;
            this.series = series;
            this.jobs = jobs;
            this.totals = totals;
        }

        Entry with(Objective o) {
            return new Entry(o, series, jobs, totals);
        }

        void add(long at, Tally d) {
            series.add(at, d);
            totals.heldMs += d.heldGpuMillis();
            totals.productiveNetMs += d.productiveGpuMillis();
            totals.productiveShownMs = Math.max(totals.productiveShownMs, totals.productiveNetMs);
        }
    }

    /** Counters since the objective was set, for those who compute burn rates themselves (Prometheus rules). */
    private static final class Totals {
        long heldMs;
        long productiveNetMs;
        long productiveShownMs;
    }

    /** A job's cumulative GPU time at one sample. */
    private record Cumulative(long[] gpuMillis, double[] lostByCause) {

        static Cumulative of(JobSample j) {
            long[] g = new long[Bucket.values().length];
            j.gpuMillis().forEach((b, v) -> g[b.ordinal()] = v);
            double[] c = new double[IncidentCause.values().length];
            j.lostGpuHours().forEach((k, v) -> c[k.ordinal()] = v);
            return new Cumulative(g, c);
        }

        long held() {
            long s = 0;
            for (Bucket b : Bucket.values()) {
                if (b != Bucket.WAITING) {
                    s += gpuMillis[b.ordinal()];
                }
            }
            return s;
        }

        /**
         * What happened since {@code prev}, priced. Bucket deltas are signed (a rework moves productive time to lost);
         * held time that shrank means a new incarnation of the name, counted from zero. Incident losses only grow:
         * one that shrank lost an incident off the job's bounded log and is taken as the new base.
         */
        Tally since(Cumulative prev, Double price) {
            Tally d = new Tally();
            boolean restarted = held() < prev.held();
            for (int i = 0; i < gpuMillis.length; i++) {
                d.gpuMillis[i] = restarted ? gpuMillis[i] : gpuMillis[i] - prev.gpuMillis[i];
            }
            for (int i = 0; i < lostByCause.length; i++) {
                double v = lostByCause[i] - prev.lostByCause[i];
                d.lostGpuHoursByCause[i] = Math.max(0, restarted ? lostByCause[i] : v);
            }
            long held = d.heldGpuMillis();
            if (price == null) {
                d.unpricedGpuMillis = held;
            } else {
                d.heldMoney = held / GoodputView.MILLIS_PER_HOUR * price;
                d.spentMoney = (held - d.productiveGpuMillis()) / GoodputView.MILLIS_PER_HOUR * price;
                d.lostMoney = d.lostGpuMillis() / GoodputView.MILLIS_PER_HOUR * price;
            }
            return d;
        }
    }
}
