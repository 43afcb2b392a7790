package io.lifeline.domain.job;

import io.lifeline.domain.job.checkpoint.CheckpointEntry;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Builds the immutable view records of one job as of a given time. */
final class JobViews {

    private static final Comparator<TimelineEntry> TIME_ORDER =
            Comparator.comparing(TimelineEntry::time).thenComparingLong(TimelineEntry::seq);

    private final JobsConfig config;

    JobViews(JobsConfig config) {
        this.config = config;
    }

    FreshnessView freshness(Job job, long now) {
        CheckpointEntry newest = job.checkpoints.newestGood();
        int gpus = job.gpusHeld();
        Instant ref = newest != null ? newest.completedAt() : job.firstProgressAt;
        Long age = ref == null ? null : Math.max(0, now - ref.toEpochMilli());
        Long stepsSince = newest != null && job.lastStep >= 0 ? Math.max(0, job.lastStep - newest.step()) : null;
        double atRisk = age == null ? 0 : gpus * (double) age / GoodputView.MILLIS_PER_HOUR;
        long objective = job.freshnessObjectiveMillis(config);
        boolean breached = job.state.isActive() && age != null && age > objective;
        return new FreshnessView(newest == null ? null : newest.id(), newest == null ? null : newest.step(),
                ref == null || newest == null ? null : ref, age, stepsSince, gpus, atRisk, objective, breached,
                job.checkpoints.verifies());
    }

    GoodputView goodput(Job job, long now) {
        return job.ledger.view(now);
    }

    JobSummary summary(Job job, long now) {
        FreshnessView f = freshness(job, now);
        GoodputView g = goodput(job, now);
        Incident open = job.incidents.open();
        Integer maxRestarts = job.elastic == null ? null : job.elastic.maxRestarts();
        return new JobSummary(job.name, job.namespace, job.state, job.stateSince, job.gpusHeld(),
                job.membership.worldSize(), job.membership.activeNodeCount(), job.restarts, maxRestarts,
                maxRestarts != null && job.restarts > maxRestarts, job.lastStep < 0 ? null : job.lastStep,
                job.lastProgressAt, f.ageMillis(), f.breached(), g.ettr(), g.ettrOfWall(), open == null ? null : open.id(),
                job.incidents.interruptions(), job.primaryPool, job.primaryCapacity, job.submittedAt, job.finishedAt);
    }

    JobDetail detail(Job job, long now) {
        Incident open = job.incidents.open();
        IncidentView openView = open == null ? null
                : open.view(job.ledger.pendingMillis(now), job.ledger.activity(), job.ledger.gpus());
        return new JobDetail(summary(job, now), job.owner, job.priorityClass, job.elastic, job.gpusPerNode,
                job.checkpointIntervalSeconds, job.finishReason, job.samplesPerSecond, job.tokensPerSecond,
                job.agentRestarts, freshness(job, now), goodput(job, now), job.membership.view(job.name), openView,
                job.incidents.interruptionsByCause(), job.refusals.toList(), job.duplicates, job.lateEvents);
    }

    List<IncidentView> incidents(Job job, long now) {
        return job.incidents.views(job.ledger.pendingMillis(now), job.ledger.activity(), job.ledger.gpus());
    }

    /**
     * A page of the timeline: entries with {@code from <= time < to} (null bounds are open), after the
     * cursor, in time order, at most {@code limit}.
     */
    TimelinePage timeline(Job job, Instant from, Instant to, String cursor, int limit, long now) {
        long cursorTime = Long.MIN_VALUE;
        long cursorSeq = Long.MIN_VALUE;
        if (cursor != null && !cursor.isEmpty()) {
            int colon = cursor.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("bad timeline cursor: " + cursor);
            }
            cursorTime = Long.parseLong(cursor.substring(0, colon));
            cursorSeq = Long.parseLong(cursor.substring(colon + 1));
        }
        List<TimelineEntry> all = new ArrayList<>();
        for (TimelineEntry e : job.timeline) {
            long t = e.time().toEpochMilli();
            boolean inRange = (from == null || !e.time().isBefore(from)) && (to == null || e.time().isBefore(to));
            boolean afterCursor = t > cursorTime || (t == cursorTime && e.seq() > cursorSeq);
            if (inRange && afterCursor) {
                all.add(e);
            }
        }
        all.sort(TIME_ORDER);
        int n = Math.max(1, limit);
        List<TimelineEntry> page = all.size() > n ? all.subList(0, n) : all;
        String next = null;
        if (all.size() > n) {
            TimelineEntry last = page.get(page.size() - 1);
            next = last.time().toEpochMilli() + ":" + last.seq();
        }
        List<IncidentView> overlapping = new ArrayList<>();
        for (IncidentView i : incidents(job, now)) {
            boolean startsBeforeEnd = to == null || i.openedAt().isBefore(to);
            boolean endsAfterStart = from == null || i.closedAt() == null || !i.closedAt().isBefore(from);
            if (startsBeforeEnd && endsAfterStart) {
                overlapping.add(i);
            }
        }
        return new TimelinePage(job.name, List.copyOf(page), List.copyOf(overlapping), next);
    }
}
