package io.lifeline.domain.storage;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The storage targets the jobs' checkpoints go to, learned from {@code trainer.checkpoint.completed} (location, size,
 * write time, free space), {@code trainer.checkpoint.failed} (free space, on the job's newest target) and
 * {@code job.finished} (the job writes no more). Each event costs a few map look-ups and ring updates: the kept bytes
 * are a running sum, and nothing is scanned per event. Reads work the figures out from at most
 * {@code maxJobsPerTarget × samples} saves per target.
 *
 * <p>Retention: the events do not say which checkpoints were deleted, so each job is taken to keep its newest
 * {@link StorageSettings#retentionCheckpoints()} on a target; a save beyond them rotates the oldest out, and the bytes
 * it adds are net of that one.
 *
 * <p>Not thread-safe, like the rest of the model.
 */
public final class StorageTargets {

    /** Jobs whose targets are remembered at most (for failures that report free space without a location). */
    private static final int MAX_JOBS = 100_000;
    /** Targets remembered per job, the newest last. */
    private static final int MAX_TARGETS_PER_JOB = 8;

    private final StorageSettings settings;
    private final StorageRoot roots;
    /** In order of the newest write, the least recent first: the one forgotten when there are too many. */
    private final LinkedHashMap<String, Target> targets = new LinkedHashMap<>();

    /** Each job's targets, the newest last: a failure reports on the newest, a finish reaches them all. */
    private final LinkedHashMap<String, LinkedHashSet<String>> jobTargets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, LinkedHashSet<String>> eldest) {
            return size() > MAX_JOBS;
        }
    };

    /** One target: its jobs, least recently written first, and the bytes they keep (a running sum). */
    private static final class Target {
        final String root;
        final LinkedHashMap<String, JobWrites> jobs = new LinkedHashMap<>();
        long keptBytes;

        Target(String root) {
            this.root = root;
        }
    }

    /** Bumped by every event that changed a target: a snapshot is worked out again only then, or once a minute. */
    private long version;

    private long snapshotVersion = -1;
    private long snapshotAtMillis;
    private List<StorageTargetView> snapshot = List.of();

    public StorageTargets(StorageSettings settings) {
        this.settings = settings;
        this.roots = new StorageRoot(settings.roots());
    }

    public StorageSettings settings() {
        return settings;
    }

    /** The target a location belongs to, or null without one. */
    public String targetOf(String uri) {
        return roots.of(uri);
    }

    /** Learns from one event the jobs' model applied; any other type is ignored. */
    public void apply(Event e) {
        if (e.data() instanceof TrainerData.CheckpointCompleted d) {
            version++;
            completed(e.subject(), e.time().toEpochMilli(), d);
        } else if (e.data() instanceof TrainerData.CheckpointFailed d) {
            version++;
            LinkedHashSet<String> of = jobTargets.get(e.subject());
            String root = null;
            for (String r : of == null ? List.<String>of() : of) {
                root = r;
            }
            Target t = root == null ? null : targets.get(root);
            JobWrites w = t == null ? null : t.jobs.get(e.subject());
            if (w != null) {
                w.reported(e.time().toEpochMilli(), d.freeBytes(), d.capacityBytes(), t.keptBytes);
            }
        } else if (e.type() == io.lifeline.domain.event.EventType.JOB_FINISHED) {
            version++;
            for (String root : jobTargets.getOrDefault(e.subject(), new LinkedHashSet<>())) {
                Target t = targets.get(root);
                JobWrites w = t == null ? null : t.jobs.get(e.subject());
                if (w != null) {
                    w.finished();
                }
            }
        }
    }

    private void completed(String job, long at, TrainerData.CheckpointCompleted d) {
        String root = roots.of(d.uri());
        if (root == null) {
            return;
        }
        // Moved to the end on every write (reads leave the order alone): the first is the least recently written.
        Target t = targets.remove(root);
        if (t == null) {
            t = new Target(root);
        }
        targets.put(root, t);
        while (targets.size() > settings.maxTargets()) {
            targets.remove(targets.keySet().iterator().next());
        }
        JobWrites w = t.jobs.remove(job);
        if (w == null) {
            w = new JobWrites(job, namespaceOf(job));
        }
        t.jobs.put(job, w);
        if (t.jobs.size() > settings.maxJobsPerTarget()) {
            JobWrites gone = t.jobs.remove(t.jobs.keySet().iterator().next());
            t.keptBytes -= gone.keptBytes();
        }
        t.keptBytes +=
                w.completed(at, d.bytes(), d.durationSeconds(), settings.retentionCheckpoints(), settings.samples());
        w.reported(at, d.freeBytes(), d.capacityBytes(), t.keptBytes);
        LinkedHashSet<String> of = jobTargets.computeIfAbsent(job, k -> new LinkedHashSet<>());
        of.remove(root);
        of.add(root);
        if (of.size() > MAX_TARGETS_PER_JOB) {
            of.remove(of.iterator().next());
        }
    }

    private static String namespaceOf(String job) {
        int slash = job.indexOf('/');
        return slash > 0 ? job.substring(0, slash) : "";
    }

    /**
     * Every target with every job's figures, for the model's snapshot: worked out again only when an event changed a
     * target, or when a minute passed (who still writes, and so the write rate, moves with time alone).
     */
    public List<StorageTargetView> snapshot(Instant now) {
        long nowMs = now.toEpochMilli();
        if (snapshotVersion != version || nowMs - snapshotAtMillis >= 60_000 || nowMs < snapshotAtMillis) {
            snapshot = List.copyOf(views(now, ns -> true));
            snapshotVersion = version;
            snapshotAtMillis = nowMs;
        }
        return snapshot;
    }

    /** Every target with a job in a namespace {@code visible} accepts, by name, counting only those jobs. */
    public List<StorageTargetView> views(Instant now, Predicate<String> visible) {
        List<StorageTargetView> out = new ArrayList<>();
        for (String root : new TreeSet<>(targets.keySet())) {
            StorageTargetView v = view(targets.get(root), now, visible);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    /** One target, counting only the jobs of the namespaces {@code visible} accepts; empty when it has none. */
    public Optional<StorageTargetView> view(String target, Instant now, Predicate<String> visible) {
        Target t = target == null ? null : targets.get(target);
        return t == null ? Optional.empty() : Optional.ofNullable(view(t, now, visible));
    }

    /**
     * The target of that name, also when its slashes were doubled or dropped on the way (a name in a URL path):
     * {@code fsx} finds {@code /fsx}, {@code s3:/bucket} finds {@code s3://bucket}. Null when none.
     */
    public String find(String name) {
        if (name == null) {
            return null;
        }
        if (targets.containsKey(name)) {
            return name;
        }
        String want = canonical(name);
        for (String root : targets.keySet()) {
            if (canonical(root).equals(want)) {
                return root;
            }
        }
        return null;
    }

    private static String canonical(String name) {
        String s = name.replaceAll("/+", "/");
        return s.startsWith("/") ? s.substring(1) : s;
    }

    /** The targets a job writes to, each with every job's figures. */
    public List<StorageTargetView> ofJob(String job, Instant now) {
        List<StorageTargetView> out = new ArrayList<>();
        for (String root : new TreeSet<>(targets.keySet())) {
            Target t = targets.get(root);
            if (t.jobs.containsKey(job)) {
                out.add(view(t, now, ns -> true));
            }
        }
        return out;
    }

    /**
     * What each job writing to {@code target} writes: its checkpoint size and interval (median of its recent saves).
     * Jobs no longer writing and jobs whose size or interval is not known yet are left out.
     */
    public List<FeasibleInterval.Writer> writers(String target, Instant now) {
        Target t = targets.get(target);
        List<FeasibleInterval.Writer> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        long nowMs = now.toEpochMilli();
        for (JobWrites w : t.jobs.values()) {
            Double size = w.bytesPerCheckpoint();
            Double gap = w.intervalSeconds();
            if (w.writing(nowMs, settings.idleAfter().toMillis()) && size != null && gap != null && gap > 0) {
                out.add(new FeasibleInterval.Writer(w.job, size, gap));
            }
        }
        out.sort(java.util.Comparator.comparing(FeasibleInterval.Writer::job));
        return out;
    }

    private StorageTargetView view(Target t, Instant now, Predicate<String> visible) {
        long nowMs = now.toEpochMilli();
        long idle = settings.idleAfter().toMillis();
        TreeSet<String> namespaces = new TreeSet<>();
        List<StorageTargetView.Writer> writers = new ArrayList<>();
        List<Double> bandwidths = new ArrayList<>();
        long kept = 0;
        int keptCount = 0;
        int writing = 0;
        double netPerSecond = 0;
        long largest = 0;
        long lastWrite = Long.MIN_VALUE;
        JobWrites newestReport = null;
        Long capacity = null;
        long capacityAt = Long.MIN_VALUE;
        for (JobWrites w : t.jobs.values()) {
            if (!visible.test(w.namespace)) {
                continue;
            }
            namespaces.add(w.namespace);
            kept += w.keptBytes();
            keptCount += w.keptCount();
            largest = Math.max(largest, w.largestBytes());
            lastWrite = Math.max(lastWrite, w.lastSaveMillis());
            List<Double> own = new ArrayList<>();
            for (SavedStorage.Save s : w.saves()) {
                if (s.bytesPerSecond() != null) {
                    own.add(s.bytesPerSecond());
                }
            }
            bandwidths.addAll(own);
            boolean isWriting = w.writing(nowMs, idle);
            Double net = isWriting ? w.netBytesPerSecond() : null;
            if (isWriting) {
                writing++;
                netPerSecond += net == null ? 0 : net;
            }
            if (w.freeBytes() != null
                    && (newestReport == null || w.reportedAtMillis() > newestReport.reportedAtMillis())) {
                newestReport = w;
            }
            if (w.capacityBytes() != null && w.reportedAtMillis() > capacityAt) {
                capacity = w.capacityBytes();
                capacityAt = w.reportedAtMillis();
            }
            writers.add(new StorageTargetView.Writer(
                    w.job,
                    w.namespace,
                    w.keptBytes(),
                    w.keptCount(),
                    w.bytesPerCheckpoint(),
                    w.intervalSeconds(),
                    own.isEmpty() ? null : Stats.median(own),
                    net == null ? null : net * 3600,
                    isWriting,
                    w.lastSaveMillis() == Long.MIN_VALUE ? null : Instant.ofEpochMilli(w.lastSaveMillis())));
        }
        if (writers.isEmpty()) {
            return null;
        }
        writers.sort(java.util.Comparator.comparing(StorageTargetView.Writer::job));
        Long free = null;
        if (newestReport != null) {
            // What the jobs kept since the reading has taken its share of the space read.
            long since = Math.max(0, t.keptBytes - newestReport.targetKeptAtReport());
            free = Math.max(0, newestReport.freeBytes() - since);
        }
        Double untilFull = free != null && netPerSecond > 0 ? free / netPerSecond : null;
        return new StorageTargetView(
                t.root,
                List.copyOf(namespaces),
                writers.size(),
                writing,
                kept,
                keptCount,
                bandwidths.isEmpty() ? null : Stats.median(bandwidths),
                bandwidths.isEmpty() ? null : Stats.percentile(bandwidths, 10),
                bandwidths.size(),
                free,
                capacity,
                newestReport == null ? null : Instant.ofEpochMilli(newestReport.reportedAtMillis()),
                netPerSecond * 3600,
                untilFull,
                largest,
                lastWrite == Long.MIN_VALUE ? null : Instant.ofEpochMilli(lastWrite),
                writers);
    }

    /** The state as plain values, for a checkpoint of the model. */
    public SavedStorage save() {
        List<SavedStorage.Writer> writers = new ArrayList<>();
        for (Target t : targets.values()) {
            for (JobWrites w : t.jobs.values()) {
                writers.add(w.save(t.root));
            }
        }
        List<List<String>> of = new ArrayList<>();
        jobTargets.forEach((job, roots) -> {
            List<String> row = new ArrayList<>();
            row.add(job);
            row.addAll(roots);
            of.add(List.copyOf(row));
        });
        return new SavedStorage(writers, of);
    }

    /** Takes back {@link #save()}'s state into this instance, which must be new. */
    public void restore(SavedStorage saved) {
        if (!targets.isEmpty()) {
            throw new IllegalStateException("storage targets are restored only into an empty model");
        }
        if (saved == null) {
            return;
        }
        for (SavedStorage.Writer w : saved.writers()) {
            Target t = targets.computeIfAbsent(w.target(), Target::new);
            JobWrites j = JobWrites.restore(w);
            t.jobs.put(j.job, j);
            t.keptBytes += j.keptBytes();
        }
        for (List<String> row : saved.jobTargets()) {
            if (row.size() >= 2) {
                jobTargets.put(row.get(0), new LinkedHashSet<>(row.subList(1, row.size())));
            }
        }
    }
}
