package io.lifeline.domain.job;

import static io.lifeline.domain.job.support.Medians.median;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.checkpoint.TrustRules;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.domain.job.goodput.GoodputRollup;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.RollupDimension;
import io.lifeline.domain.job.hang.HangSettings;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.hang.StackCaptureView;
import io.lifeline.domain.job.history.HistoryRecord;
import io.lifeline.domain.job.history.HistorySlice;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentLog;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.domain.job.membership.NodeJobIndex;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryCheck;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseCalculator;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.domain.job.spot.CapacityInterval;
import io.lifeline.domain.job.spot.SpotEconomics;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.domain.job.spot.SpotReport;
import io.lifeline.domain.job.spot.SpotVerdict;
import io.lifeline.domain.job.straggler.StragglerConfig;
import io.lifeline.domain.job.straggler.StragglerDetector;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.domain.job.support.RecentIds;
import io.lifeline.domain.support.SilentSubjects;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The jobs model: applies job, scheduler and trainer events (subject = job name {@code namespace/name})
 * and node signals to per-job state (lifecycle, membership, checkpoints, incidents, goodput) and answers
 * read queries with immutable view records.
 *
 * <p>Determinism: the same events in the same order give the same state. An event whose time is before
 * the job's accounting clock (a late event) is accounted at the clock, so goodput buckets never go
 * negative and always add up to wall time; facts it carries (checkpoint times, incident phase times)
 * keep their own time. A redelivered event (same source and id as one of the job's recent events) is
 * dropped. "Now"-based figures (freshness, wall time so far) read the injected clock.
 *
 * <p>Memory: every per-job structure is bounded, ended jobs are kept up to {@link JobsConfig#maxFinishedJobs()} (the
 * oldest forgotten first, with their node index entries), and a job never submitted that has not ended is forgotten
 * once silent for {@link JobsConfig#strayJobsForgetAfter()} in event time (a late event of a forgotten job, a job
 * whose submission Lifeline never sees and whose end is lost).
 *
 * <p>Not thread-safe: apply events and read from one thread, or guard the instance with one lock.
 */
public final class Jobs {

    private final NodeDirectory nodes;
    private final Clock clock;
    private final JobsConfig config;
    private final Map<String, Job> jobs = new HashMap<>();
    /** The same jobs in name order, kept with {@link #jobs} on every add and remove, so no read sorts them. */
    private final TreeMap<String, Job> byName = new TreeMap<>();

    private final NodeJobIndex index = new NodeJobIndex();
    private final ArrayDeque<Job> ended = new ArrayDeque<>();
    /** Jobs with timeline entries not yet handed over by {@link #drainTimeline()}: each job once, so at most all jobs. */
    private final ArrayList<Job> undrained = new ArrayList<>();
    /** Jobs with incidents or checkpoints changed since {@link #drainRecords()}: each job once. */
    private final ArrayList<Job> recordsUndrained = new ArrayList<>();

    private final Interruptions interruptions;
    private final JobEvents events;
    private final JobViews views;
    /** Jobs first seen by another event than their submission: forgotten once silent unless submitted or ended. */
    private final SilentSubjects strays;

    private final SilentSubjects.Subjects strayJobs = new SilentSubjects.Subjects() {
        @Override
        public OptionalLong candidate(String name) {
            Job job = jobs.get(name);
            return job == null || job.submitted || job.retiring
                    ? OptionalLong.empty()
                    : OptionalLong.of(job.ledger.clockMs());
        }

        @Override
        public void forget(String name) {
            Jobs.this.forget(jobs.get(name));
        }
    };
    /** Submitted jobs that have not run yet: forgotten once silent for {@link JobLimits#unstartedForgetAfter()}. */
    private SilentSubjects unstarted;

    private final SilentSubjects.Subjects unstartedJobs = new SilentSubjects.Subjects() {
        @Override
        public OptionalLong candidate(String name) {
            Job job = jobs.get(name);
            return job == null || !job.submitted || job.retiring || job.hasRun()
                    ? OptionalLong.empty()
                    : OptionalLong.of(job.ledger.clockMs());
        }

        @Override
        public void forget(String name) {
            Jobs.this.forget(jobs.get(name));
        }
    };
    private JobLimits limits = JobLimits.defaults();
    /** Jobs held that have not ended: what {@link JobLimits} bounds, in total and by namespace. */
    private int live;

    private final Map<String, Integer> liveByNamespace = new HashMap<>();
    private long ignored;
    private long lostTimelineEntries;

    private StragglerConfig stragglerConfig = StragglerConfig.defaults();
    private HangSettings hangSettings = HangSettings.defaults();

    public Jobs(NodeDirectory nodes, Clock clock) {
        this(nodes, clock, JobsConfig.defaults());
    }

    public Jobs(NodeDirectory nodes, Clock clock, JobsConfig config) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.config = Objects.requireNonNull(config, "config");
        this.interruptions = new Interruptions(config, nodes);
        this.events = new JobEvents(interruptions, config.checkpointStorage());
        this.views = new JobViews(config, nodes);
        this.strays = new SilentSubjects(config.strayJobsForgetAfter().toMillis());
        this.unstarted = new SilentSubjects(limits.unstartedForgetAfter().toMillis());
    }

    /** Sets how many jobs are held at most and when one that never ran is forgotten (before events are applied). */
    public void configureLimits(JobLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.unstarted = new SilentSubjects(limits.unstartedForgetAfter().toMillis());
    }

    /** Jobs held that have not ended (what the limits count). */
    public int liveJobs() {
        return live;
    }

    /**
     * The jobs' state as plain values, for a checkpoint of the model. It shares nothing mutable with the model, so it
     * may be encoded on another thread while the model goes on.
     */
    public SavedJobs save() {
        List<SavedJob> all = new ArrayList<>(jobs.size());
        for (Job job : jobs.values()) {
            all.add(job.save());
        }
        return new SavedJobs(
                all, Job.names(ended), Job.names(undrained), Job.names(recordsUndrained), ignored, lostTimelineEntries);
    }

    /**
     * Takes back the state {@link #save()} gave, into this model, which must be new (nothing applied yet). The events
     * applied afterwards then give the reads they give the model that was saved. The bounds are this model's own
     * configuration: smaller ones keep the newest of what was saved.
     *
     * @throws IllegalStateException when this model already holds jobs
     */
    public void restore(SavedJobs saved) {
        if (!jobs.isEmpty() || ignored != 0 || lostTimelineEntries != 0) {
            throw new IllegalStateException("jobs are restored only into an empty model");
        }
        for (SavedJob s : saved.jobs()) {
            Job job = new Job(s, config);
            add(job);
            index.move(job.name, List.of(), job.indexedNodes);
            // Queued again for forgetting, as when they were first seen: a saved queue is not kept.
            if (!job.retiring && !job.submitted) {
                strays.add(job.name, job.ledger.clockMs());
            } else if (!job.retiring && !job.hasRun()) {
                unstarted.add(job.name, job.ledger.clockMs());
            }
        }
        for (String name : saved.timelineQueue()) {
            Job job = jobs.get(name);
            if (job != null && !job.drainQueued) {
                job.drainQueued = true;
                undrained.add(job);
            }
        }
        for (String name : saved.recordsQueue()) {
            Job job = jobs.get(name);
            if (job != null && !job.recordsQueued) {
                job.recordsQueued = true;
                recordsUndrained.add(job);
            }
        }
        ignored = saved.ignored();
        lostTimelineEntries = saved.lostTimelineEntries();
        for (String name : saved.ended()) {
            Job job = jobs.get(name);
            if (job != null && job.retiring) {
                ended.addLast(job);
            }
        }
        while (ended.size() > config.maxFinishedJobs()) {
            forget(ended.pollFirst());
        }
    }

    /**
     * Applies a job, scheduler or trainer event; node and GPU events are ignored (they reach jobs as signals).
     *
     * @return what it did: changed (every event the job keeps goes on its timeline at least), or not applied: a
     *         duplicate the job has already, step times of a job that is unknown or has ended
     */
    public ApplyOutcome apply(Event e) {
        if (e.type().family().subjectIsNode()) {
            ignored++;
            return ApplyOutcome.UNCHANGED;
        }
        if (e.type() == EventType.TRAINER_STEP_TIMES) {
            return stepTimes(e);
        }
        String outOfScope = JobScope.refusal(e);
        if (outOfScope != null) {
            ignored++;
            return ApplyOutcome.notApplied(NotAppliedReason.SCOPE_MISMATCH, outOfScope);
        }
        Job job = jobs.get(e.subject());
        // De-duplicate first, across incarnations of a job name: a redelivered submission must not start a new job.
        RecentIds ids = job != null ? job.recentIds : new RecentIds(config.maxRecentEventIds());
        if (!ids.add(e.source(), e.id())) {
            job.duplicates++;
            return ApplyOutcome.notApplied(
                    NotAppliedReason.DUPLICATE, "the job has event " + e.id() + " of " + e.source() + " already");
        }
        if (job == null || isNewIncarnation(job, e)) {
            String full = overLimit(Job.namespaceOf(e.subject()));
            if (full != null) {
                ignored++;
                return ApplyOutcome.notApplied(NotAppliedReason.LIMIT_REACHED, full);
            }
            if (job != null) {
                forget(job);
            }
            job = new Job(e.subject(), e.time(), config, ids);
            add(job);
            if (e.type() != EventType.JOB_SUBMITTED) {
                strays.add(job.name, e.time().toEpochMilli());
            }
        }
        if (e.type() == EventType.JOB_SUBMITTED) {
            if (!job.submitted && !job.hasRun()) {
                unstarted.add(job.name, e.time().toEpochMilli());
            }
            job.submitted = true;
        }
        long eff = job.advance(e.time());
        interruptions.expireWarnings(job, eff);
        events.handle(job, e);
        settle(job);
        strays.forgetSilent(e.time().toEpochMilli(), strayJobs);
        unstarted.forgetSilent(e.time().toEpochMilli(), unstartedJobs);
        return ApplyOutcome.CHANGED;
    }

    /** Why a new job of {@code namespace} is beyond the limits; null when it is not. */
    private String overLimit(String namespace) {
        if (live >= limits.maxJobs()) {
            return "the model holds " + live + " jobs that have not ended, its limit (lifeline.model.limits.max-jobs); "
                    + "a new job is taken once others end or are forgotten";
        }
        int inNamespace = liveByNamespace.getOrDefault(namespace, 0);
        if (inNamespace >= limits.maxJobsPerNamespace()) {
            return "namespace " + namespace + " has " + inNamespace + " jobs that have not ended, its limit "
                    + "(lifeline.model.limits.max-jobs-per-namespace); a new job is taken once others end or are forgotten";
        }
        return null;
    }

    /** Counts {@code job} in or out of the jobs that have not ended. */
    private void countLive(Job job, int delta) {
        live += delta;
        liveByNamespace.merge(job.namespace, delta, (a, b) -> a + b == 0 ? null : a + b);
    }

    /**
     * One rank's step times go to its job's straggler detector only: they start no job, take no place among the
     * job's remembered event ids (every rank reports), and a resend replaces the same rank's sample in its window.
     */
    private ApplyOutcome stepTimes(Event e) {
        Job job = jobs.get(e.subject());
        if (job == null
                || job.state.isTerminal()
                || !(e.data() instanceof io.lifeline.domain.event.TrainerData.StepTimes d)) {
            ignored++;
            return job == null
                    ? ApplyOutcome.notApplied(
                            NotAppliedReason.UNKNOWN_JOB,
                            "no job " + e.subject() + " is known: step times start no job")
                    : ApplyOutcome.notApplied(
                            NotAppliedReason.JOB_ENDED,
                            "job " + e.subject() + " ended (" + job.state.name().toLowerCase(java.util.Locale.ROOT)
                                    + ")");
        }
        JobEvents.hangs(job).report(e.time().toEpochMilli(), d);
        if (!d.hasSteps()) {
            return ApplyOutcome.CHANGED; // a heartbeat: the rank is alive and made no step since its last report
        }
        if (job.stragglers == null) {
            job.stragglers = new StragglerDetector(stragglerConfig);
        }
        job.stragglers.report(
                e.time(),
                d.rank(),
                d.localRank(),
                d.node(),
                d.paceSeconds(),
                job.membership::nodeOfRank,
                job.gpusHeld());
        return ApplyOutcome.CHANGED;
    }

    /** Sets how stragglers are found (before events are applied). */
    public void configureStragglers(StragglerConfig config) {
        this.stragglerConfig = Objects.requireNonNull(config, "config");
    }

    /** Sets how checkpoint trust is judged (before or while events are applied). */
    public void configureTrust(TrustRules rules) {
        events.trust(Objects.requireNonNull(rules, "rules"));
    }

    /** Sets the hang thresholds (before or while events are applied). */
    public void configureHangs(HangSettings settings) {
        this.hangSettings = Objects.requireNonNull(settings, "settings");
    }

    /** Whether the job is hung, judged now; empty for an unknown job. */
    public Optional<HangVerdict> hang(String job) {
        return find(job).map(j -> hangVerdict(j, now()));
    }

    /**
     * The training jobs suspected hung now that are not already in a stopped incident: what the detector reports.
     * A scan of the jobs, run every few seconds, never per event.
     */
    public List<java.util.Map.Entry<String, HangVerdict>> hangSuspects() {
        long nowMs = now();
        List<java.util.Map.Entry<String, HangVerdict>> out = new ArrayList<>();
        for (Job j : jobs.values()) {
            if (j.state != JobState.RUNNING || j.hangs == null && j.statusReports == null) {
                continue;
            }
            HangVerdict v = hangVerdict(j, nowMs);
            if (v.suspected()) {
                out.add(java.util.Map.entry(j.name, v));
            }
        }
        return out;
    }

    private HangVerdict hangVerdict(Job j, long nowMs) {
        Incident open = j.incidents.open();
        // A hang already detected is still judged until its workers restart: the verdict shows what is stuck now.
        boolean hangOpen = open != null
                && open.stopped()
                && open.cause() == io.lifeline.domain.job.incident.IncidentCause.HANG
                && !open.hasRecoveryMarker();
        if (j.state != JobState.RUNNING && !hangOpen) {
            return HangVerdict.of(
                    HangVerdict.NOT_APPLICABLE,
                    "the job is " + j.state.name().toLowerCase(java.util.Locale.ROOT)
                            + (open != null && open.stopped()
                                    ? " (incident " + open.id() + ", " + open.cause() + ")"
                                    : "")
                            + ": only a training job is judged");
        }
        if (j.hangs == null && j.statusReports != null && !j.agentProgress) {
            // No agent: the TrainJob's status reports are all there is, and all the verdict may rest on.
            return j.statusReports.judge(nowMs, hangSettings);
        }
        if (j.hangs == null) {
            return HangVerdict.of(
                    HangVerdict.UNKNOWN, "no rank has reported a heartbeat (the agent's trainer.step_times)");
        }
        return j.hangs.judge(nowMs, hangSettings, j.membership::nodeOfRank);
    }

    /** The job's newest stack capture; empty for an unknown job or before any capture. */
    public Optional<StackCaptureView> stacks(String job) {
        return stacks(job, null);
    }

    /**
     * One of the job's newest stack captures (it keeps a few): the one answering {@code requestId}, or the newest when
     * null; empty when there is none.
     */
    public Optional<StackCaptureView> stacks(String job, String requestId) {
        return find(job).filter(j -> j.stacks != null).flatMap(j -> {
            java.util.Iterator<io.lifeline.domain.job.hang.StackCapture> it = j.stacks.descendingIterator();
            while (it.hasNext()) {
                io.lifeline.domain.job.hang.StackCapture c = it.next();
                if (requestId == null || requestId.equals(c.requestId())) {
                    return Optional.of(c.view(j.membership.worldSize()));
                }
            }
            return Optional.empty();
        });
    }

    /** The job's stragglers, with the drain offered for the slowest; empty for an unknown job. */
    public Optional<StragglerView> stragglers(String job) {
        Job j = jobs.get(job);
        return j == null ? Optional.empty() : Optional.of(views.stragglers(j));
    }

    /** Applies something that happened to a node to every job with ranks on it. */
    public void onNodeSignal(NodeSignal s) {
        for (String name : index.jobsOn(s.node())) {
            Job job = jobs.get(name);
            if (job == null
                    || !job.recentIds.add(
                            "signal:" + s.node(), s.kind() + "@" + s.time().toEpochMilli())) {
                continue;
            }
            long eff = job.advance(s.time());
            interruptions.expireWarnings(job, eff);
            events.onSignal(job, eff, s);
            settle(job);
        }
    }

    /** A submission after the job with that name ended starts a new job under the same name. */
    private static boolean isNewIncarnation(Job job, Event e) {
        return e.type() == EventType.JOB_SUBMITTED
                && job.state.isTerminal()
                && job.finishedAt != null
                && e.time().isAfter(job.finishedAt);
    }

    private void settle(Job job) {
        job.settle();
        if (job.timelineSeq > job.drainedSeq && !job.drainQueued) {
            job.drainQueued = true;
            undrained.add(job);
        }
        if (!job.recordsQueued && (job.incidents.hasUndrained() || job.checkpoints.hasChanged())) {
            job.recordsQueued = true;
            recordsUndrained.add(job);
        }
        job.resolvePools(nodes);
        if (job.indexedVersion != job.membership.version()) {
            List<String> now = List.copyOf(job.membership.nodes());
            index.move(job.name, job.indexedNodes, now);
            job.indexedNodes = now;
            job.indexedVersion = job.membership.version();
        }
        if (job.state.isTerminal() && job.finishedAt != null && !job.retiring) {
            job.retiring = true;
            countLive(job, -1);
            ended.addLast(job);
            while (ended.size() > config.maxFinishedJobs()) {
                forget(ended.pollFirst());
            }
        }
    }

    private void forget(Job job) {
        if (jobs.get(job.name) == job) {
            jobs.remove(job.name);
            byName.remove(job.name);
            if (!job.retiring) {
                countLive(job, -1);
            }
        }
        if (job.drainQueued) {
            // Keeps the queue bounded by the jobs known when nobody drains it.
            undrained.remove(job);
            job.drainQueued = false;
        }
        if (job.recordsQueued) {
            recordsUndrained.remove(job);
            job.recordsQueued = false;
        }
        index.move(job.name, job.indexedNodes, List.of());
        ended.remove(job);
    }

    private long now() {
        return clock.millis();
    }

    /**
     * Hands over the timeline entries added since the previous call, per job in sequence order, so that a caller can
     * store the job's whole history while memory keeps only the last {@link JobsConfig#maxTimelineEntries()}. Call it
     * after each event (or batch): entries that left a job's ring before they were drained are not handed over, and
     * {@code lost} counts them.
     */
    public List<JobTimelineEntry> drainTimeline() {
        if (undrained.isEmpty()) {
            return List.of();
        }
        List<JobTimelineEntry> out = new ArrayList<>();
        for (Job job : undrained) {
            // Entries are in sequence order: walk back from the newest to the last one handed over, not the whole ring
            // (this runs after every event that added an entry).
            long first = job.timelineSeq + 1;
            int from = out.size();
            for (Iterator<TimelineEntry> it = job.timeline.newestFirst(); it.hasNext(); ) {
                TimelineEntry e = it.next();
                if (e.seq() <= job.drainedSeq) {
                    break;
                }
                first = e.seq();
                out.add(new JobTimelineEntry(job.name, job.incarnation, e));
            }
            Collections.reverse(out.subList(from, out.size()));
            lostTimelineEntries += Math.max(0, first - job.drainedSeq - 1);
            job.drainedSeq = job.timelineSeq;
            job.drainQueued = false;
        }
        undrained.clear();
        return out;
    }

    /**
     * Hands over the incidents that closed and the checkpoints that changed since the previous call, as they stand
     * now, so that a caller can keep the latest version of every one while memory keeps only the newest
     * ({@link JobsConfig#maxIncidentsPerJob()}, {@link JobsConfig#maxCheckpointsPerJob()}). The open incident is not
     * handed over: memory always holds it, and it is handed over once closed. Call it after each event or batch.
     */
    public List<HistoryRecord> drainRecords() {
        if (recordsUndrained.isEmpty()) {
            return List.of();
        }
        List<HistoryRecord> out = new ArrayList<>();
        for (Job job : recordsUndrained) {
            for (Incident i : job.incidents.drainClosed()) {
                out.add(new HistoryRecord(
                        HistoryRecord.Kind.INCIDENT,
                        job.name,
                        job.incarnation,
                        i.id(),
                        IncidentLog.ordinal(i.id()),
                        i.openedAt(),
                        i.view(0, null, 0)));
            }
            for (HistorySlice.Ordered<CheckpointView> c : job.checkpoints.drainChanged()) {
                out.add(new HistoryRecord(
                        HistoryRecord.Kind.CHECKPOINT,
                        job.name,
                        job.incarnation,
                        c.view().id(),
                        c.ordinal(),
                        firstTime(c.view(), job.incarnation),
                        c.view()));
            }
            job.recordsQueued = false;
        }
        recordsUndrained.clear();
        return out;
    }

    /**
     * What memory holds of a page of a job's incidents, paged from the newest back, to be merged with the stored
     * ones that left it ({@link HistorySlice#page(List)}).
     *
     * @param cursor  {@link io.lifeline.domain.page.Page#nextCursor()} of the previous page, or null for the newest
     * @throws IllegalArgumentException for a malformed cursor
     */
    public Optional<HistorySlice<IncidentView>> incidentSlice(String job, String cursor, int limit) {
        long before = HistorySlice.parse(cursor);
        return find(job).map(j -> {
            List<HistorySlice.Ordered<IncidentView>> held = new ArrayList<>();
            for (IncidentView v : views.incidents(j, now())) {
                held.add(new HistorySlice.Ordered<>(IncidentLog.ordinal(v.id()), v));
            }
            return HistorySlice.of(
                    HistoryRecord.Kind.INCIDENT, j.name, j.incarnation, before, limit, held, j.incidents.created());
        });
    }

    /** Like {@link #incidentSlice}, for a job's checkpoints. */
    public Optional<HistorySlice<CheckpointView>> checkpointSlice(String job, String cursor, int limit) {
        long before = HistorySlice.parse(cursor);
        return find(job)
                .map(j -> HistorySlice.of(
                        HistoryRecord.Kind.CHECKPOINT,
                        j.name,
                        j.incarnation,
                        before,
                        limit,
                        j.checkpoints.ordered(),
                        j.checkpoints.created()));
    }

    private static Instant firstTime(CheckpointView c, long incarnation) {
        for (Instant t : new Instant[] {c.startedAt(), c.completedAt(), c.failedAt(), c.verifiedAt()}) {
            if (t != null) {
                return t;
            }
        }
        return Instant.ofEpochMilli(incarnation);
    }

    /** Timeline entries that left a ring before {@link #drainTimeline()} handed them over. */
    public long lostTimelineEntries() {
        return lostTimelineEntries;
    }

    /** Jobs in name order: reads never depend on hash order. */
    private void add(Job job) {
        jobs.put(job.name, job);
        byName.put(job.name, job);
        if (!job.retiring) {
            countLive(job, 1);
        }
    }

    private Collection<Job> sorted() {
        return byName.values();
    }

    private Optional<Job> find(String name) {
        return Optional.ofNullable(name == null ? null : jobs.get(name));
    }

    /** Jobs matching the filter, sorted by name. */
    public List<JobSummary> list(JobFilter filter) {
        return list(filter, ns -> true);
    }

    /** Jobs matching the filter in the namespaces {@code visible} accepts, sorted by name. */
    public List<JobSummary> list(JobFilter filter, java.util.function.Predicate<String> visible) {
        long now = now();
        List<JobSummary> out = new ArrayList<>();
        for (Job job : sorted()) {
            if (filter.namespace() != null && !filter.namespace().equals(job.namespace)
                    || !visible.test(job.namespace)) {
                continue;
            }
            if (filter.state() != null && filter.state() != job.state) {
                continue;
            }
            JobSummary s = views.summary(job, now);
            if (filter.breached() == null || filter.breached() == s.freshnessBreached()) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /**
     * One page of {@link #list(JobFilter, java.util.function.Predicate)}: the same rows and total, but summaries are
     * made only for the page's rows unless the filter asks for the freshness verdict (which needs every job's), so a
     * page costs one look at each job instead of a summary of each.
     *
     * @param offset how many matching jobs to skip
     * @param limit  how many to return at most
     */
    public JobPage page(JobFilter filter, java.util.function.Predicate<String> visible, int offset, int limit) {
        long now = now();
        List<JobSummary> items = new ArrayList<>(Math.max(0, Math.min(limit, 1024)));
        int total = 0;
        for (Job job : sorted()) {
            if (filter.namespace() != null && !filter.namespace().equals(job.namespace)
                    || !visible.test(job.namespace)) {
                continue;
            }
            if (filter.state() != null && filter.state() != job.state) {
                continue;
            }
            boolean onPage = total >= offset && items.size() < limit;
            if (filter.breached() == null && !onPage) {
                total++;
                continue;
            }
            JobSummary s = views.summary(job, now);
            if (filter.breached() == null || filter.breached() == s.freshnessBreached()) {
                if (onPage) {
                    items.add(s);
                }
                total++;
            }
        }
        return new JobPage(List.copyOf(items), total);
    }

    /**
     * A page of {@link #page}.
     *
     * @param items the page's rows, by name
     * @param total how many jobs match in all
     */
    public record JobPage(List<JobSummary> items, int total) {}

    /**
     * Every job as a snapshot of the whole model holds it, sorted by name, all taken at one time: its detail, incidents,
     * checkpoint history and nodes, in one pass over the jobs (no look-up by name per job).
     */
    public List<JobSnapshotViews> snapshotViews() {
        long now = now();
        List<JobSnapshotViews> out = new ArrayList<>(jobs.size());
        for (Job job : sorted()) {
            out.add(new JobSnapshotViews(
                    views.detail(job, now),
                    views.incidents(job, now),
                    job.checkpoints.history(job.name),
                    job.indexedNodes,
                    job.recovery.latest()));
        }
        return out;
    }

    /** Every job's detail, sorted by name, all taken at one time. */
    public List<JobDetail> details() {
        long now = now();
        List<JobDetail> out = new ArrayList<>(jobs.size());
        for (Job job : sorted()) {
            out.add(views.detail(job, now));
        }
        return out;
    }

    public Optional<JobDetail> detail(String job) {
        return find(job).map(j -> views.detail(j, now()));
    }

    /** Recovery time by phase over the last {@code days} days, of the closed incidents memory keeps of {@code jobs}. */
    public RecoveryPhaseReport recoveryPhases(int days, PhaseGroupBy by, Predicate<String> jobs) {
        RecoveryPhaseCalculator calc = new RecoveryPhaseCalculator(Instant.ofEpochMilli(now()), days, by);
        this.jobs.values().stream()
                .filter(j -> jobs.test(j.name))
                .flatMap(j -> j.incidents.closed().stream())
                .filter(Incident::stopped)
                .forEach(i -> calc.add(i.cause(), i.pool(), i.stoppedAt(), i.phaseSplit()));
        return calc.report();
    }

    /** A job's incidents, oldest first, the open one last. */
    public Optional<List<IncidentView>> incidents(String job) {
        return find(job).map(j -> views.incidents(j, now()));
    }

    /** A job's attempts, oldest first (see {@link io.lifeline.domain.job.recovery.Attempts}). */
    public Optional<List<Attempt>> attempts(String job) {
        return find(job).map(j -> views.attempts(j, now()));
    }

    /** What recovery's check sees of a job now, for advice about {@code incident} (see {@link RecoveryCheck}). */
    public Optional<RecoveryCheck.Observation> observe(
            String job, String incident, Boolean nodeCordoned, String node, Instant since) {
        return find(job).map(j -> views.observation(j, incident, nodeCordoned, node, since, now()));
    }

    /** Recovery's advice for a job's incidents, oldest first. */
    public Optional<List<Advice>> recoveryAdvice(String job) {
        return find(job).map(j -> j.recovery.all());
    }

    /**
     * A job's two restart budgets: failures against its declared {@code maxRestarts} (or {@code failureBudget} when it
     * declares none), interruptions with notice or by plan against {@code plannedBudget}.
     */
    public Optional<Budgets> budgets(String job, Integer failureBudget, Integer plannedBudget) {
        return find(job)
                .map(j -> Budgets.of(
                        j.incidents.interruptionsByCause(),
                        j.elastic != null ? Integer.valueOf(j.elastic.maxRestarts()) : failureBudget,
                        plannedBudget));
    }

    /**
     * A page of a job's timeline, in time order.
     *
     * @param from    earliest time (inclusive), or null
     * @param to      latest time (exclusive), or null
     * @param cursor  {@link TimelinePage#nextCursor()} of the previous page, or null for the first
     * @param limit   most entries per page
     */
    public Optional<TimelinePage> timeline(String job, Instant from, Instant to, String cursor, int limit) {
        return timelineSlice(job, from, to, cursor, limit).map(s -> s.page(List.of()));
    }

    /**
     * What memory holds of a page of a job's timeline, to be merged with the stored entries that left its ring
     * ({@link TimelineSlice#page(List)}); the parameters are those of {@link #timeline}.
     *
     * @throws IllegalArgumentException for a cursor that is not one this model gave out
     */
    public Optional<TimelineSlice> timelineSlice(String job, Instant from, Instant to, String cursor, int limit) {
        TimelineCursor c = TimelineCursor.parse(cursor);
        return find(job).map(j -> views.timeline(j, from, to, c, limit, now()));
    }

    public Optional<CheckpointHistory> checkpoints(String job) {
        return find(job).map(j -> j.checkpoints.history(j.name));
    }

    /** The trainers' latest answer to a command sent to the job, if the job and the answer are known. */
    public Optional<CommandAckView> commandAck(String job, String commandId) {
        return find(job).flatMap(j -> j.commandAcks.find(commandId));
    }

    public Optional<FreshnessView> freshness(String job) {
        return find(job).map(j -> views.freshness(j, now()));
    }

    /** The job's freshness counting only the checkpoints that survive the loss of {@code node}. */
    public Optional<FreshnessView> freshnessSurviving(String job, String node) {
        return find(job).map(j -> views.freshness(j, now(), node));
    }

    public Optional<MembershipView> membership(String job) {
        return find(job).map(j -> j.membership.view(j.name));
    }

    public Optional<GoodputView> goodput(String job) {
        return find(job).map(j -> views.goodput(j, now()));
    }

    /** Goodput rolled up by pool, capacity type, namespace or for the whole fleet. */
    public List<GoodputRollup> rollup(RollupDimension dimension) {
        return JobRollups.rollup(sorted(), dimension, now());
    }

    /** Goodput rolled up as {@link #rollup(RollupDimension)}, over the jobs of the namespaces {@code visible} accepts. */
    public List<GoodputRollup> rollup(RollupDimension dimension, java.util.function.Predicate<String> visible) {
        return JobRollups.rollup(
                sorted().stream().filter(j -> visible.test(j.namespace)).toList(), dimension, now());
    }

    /** Checkpoint-interval advice for a job (see {@link IntervalAdvisor}). */
    public Optional<IntervalAdvice> advice(String job) {
        return find(job).map(this::advise);
    }

    /**
     * Checkpoint-interval advice for a job, read against the ETTR target of the objective it is under when it has one
     * (see {@link IntervalAdvisor#againstTarget}).
     */
    public Optional<IntervalAdvice> advice(String job, OptionalDouble ettrTarget) {
        Optional<IntervalAdvice> a = advice(job);
        return ettrTarget.isPresent() ? a.map(x -> IntervalAdvisor.againstTarget(x, ettrTarget.getAsDouble())) : a;
    }

    private IntervalAdvice advise(Job job) {
        List<String> pools = pools(job);
        return advise(job, exposure(pools, null, () -> JobRollups.exposure(sorted(), pools, now())));
    }

    /**
     * The pools' exposure for a per-node MTBI: the fleet's own (every node's time in service and interruptions over
     * the reliability's window) when the node directory has it, else what the jobs saw in those pools.
     */
    private IntervalAdvisor.Exposure exposure(
            List<String> pools, CapacityType capacity, java.util.function.Supplier<IntervalAdvisor.Exposure> fromJobs) {
        io.lifeline.domain.fleet.reliability.PoolRate rate = nodes.poolRate(pools, capacity);
        if (rate != null && rate.nodeSeconds() > 0) {
            return new IntervalAdvisor.Exposure(pools, rate.nodeSeconds(), rate.interruptions());
        }
        return fromJobs.get();
    }

    /** The job's pools: where its nodes are, else the pool it was last in. */
    private static List<String> pools(Job job) {
        List<String> pools = job.activePools();
        if (pools.isEmpty() && job.primaryPool != null) {
            pools.add(job.primaryPool);
        }
        return pools;
    }

    /** Interval advice for the job's measured checkpoint cost and recovery at the given exposure. */
    private IntervalAdvice advise(Job job, IntervalAdvisor.Exposure exposure) {
        List<Long> blocking = job.checkpoints.recentBlockingMillis(config.adviceSamples());
        Double c = blocking.isEmpty() ? null : median(blocking) / 1000.0;
        Double current = null;
        String source = null;
        if (job.checkpointIntervalSeconds != null && job.checkpointIntervalSeconds > 0) {
            current = job.checkpointIntervalSeconds.doubleValue();
            source = "configured";
        } else {
            List<Long> gaps = job.checkpoints.recentIntervalsMillis(config.adviceSamples());
            if (!gaps.isEmpty()) {
                current = median(gaps) / 1000.0;
                source = "observed";
            }
        }
        Long recovery = job.incidents.meanRecoveryMillis();
        return IntervalAdvisor.advise(
                job.name,
                current,
                source,
                c,
                blocking.size(),
                exposure,
                job.membership.activeNodeCount(),
                recovery == null ? 0 : recovery / 1000.0);
    }

    /**
     * The job and spot capacity: where its coordinating roles run, the checkpoint interval advised for spot and for
     * on-demand from its pools' reclaim rates, and the spot-vs-on-demand verdict at these prices (see
     * {@link SpotEconomics}).
     */
    public Optional<SpotReport> spot(String job, SpotPrices prices) {
        return find(job).map(j -> spotReport(j, prices));
    }

    private SpotReport spotReport(Job job, SpotPrices prices) {
        List<String> pools = pools(job);
        long now = now();
        CapacityInterval spot = SpotEconomics.interval(
                CapacityType.SPOT,
                advise(
                        job,
                        exposure(
                                pools,
                                CapacityType.SPOT,
                                () -> JobRollups.exposure(sorted(), pools, CapacityType.SPOT.wireName(), now))));
        CapacityInterval onDemand = SpotEconomics.interval(
                CapacityType.ON_DEMAND,
                advise(
                        job,
                        exposure(
                                pools,
                                CapacityType.ON_DEMAND,
                                () -> JobRollups.exposure(sorted(), pools, CapacityType.ON_DEMAND.wireName(), now))));
        String pool = job.primaryPool != null ? job.primaryPool : Job.UNKNOWN_POOL;
        Double observed = job.ledger.view(now).ettr();
        SpotVerdict verdict = SpotEconomics.verdict(
                pool,
                SpotEconomics.cost(spot, prices.price(pool, CapacityType.SPOT), false),
                SpotEconomics.cost(onDemand, prices.price(pool, CapacityType.ON_DEMAND), true),
                observed);
        return new SpotReport(job.name, views.placement(job), List.of(spot, onDemand), verdict);
    }

    /**
     * Sets a job's freshness objective (overrides factor × interval).
     *
     * @return false when the job is unknown
     */
    public boolean setFreshnessObjective(String job, Duration objective) {
        Optional<Job> j = find(job);
        j.ifPresent(x -> x.freshnessObjectiveMillis = objective == null ? null : objective.toMillis());
        return j.isPresent();
    }

    /** The jobs with ranks on a node now, sorted. */
    public List<String> jobsOn(String node) {
        return index.jobsOn(node);
    }

    /** Every node hosting ranks, with its jobs by name (a copy). */
    public Map<String, List<String>> jobsByNode() {
        return index.all();
    }

    /** Jobs known (including ended ones still retained). */
    public int size() {
        return jobs.size();
    }

    /** Node and GPU events passed to {@link #apply} and ignored. */
    public long ignoredEvents() {
        return ignored;
    }
}
