package io.lifeline.domain.action;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.runtime.LiveModel;
import io.lifeline.testing.MovableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A small fleet and its jobs, built from catalogue events, for planner and policy tests. */
public final class FleetFixture {

    public static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    public final MovableClock clock = new MovableClock(T0);
    public final LiveModel model = LiveModel.create(clock);
    private int ids;

    public FleetFixture node(String name, String pool) {
        apply(
                name,
                EventType.NODE_REGISTERED,
                new NodeData.Registered(
                        pool, CapacityType.SPOT, "us-east-1a", "p5.48xlarge", 8, "aws:///us-east-1a/i-" + name));
        return apply(name, EventType.NODE_READY, new NodeData.Ready());
    }

    /** A running job of {@code nodes} nodes with 8 ranks each; elastic between min and max when min > 0. */
    public FleetFixture job(String job, int min, int max, String... nodes) {
        ElasticPolicy elastic = min > 0 ? new ElasticPolicy(min, max, 8, 3) : null;
        apply(
                job,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(job.substring(0, job.indexOf('/')), "alice", "high", elastic, 8, 1800L));
        apply(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue"));
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            ps.add(new TrainerData.Participant(nodes[i], i * 8, 8));
        }
        apply(job, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("run-1", 1, 8 * nodes.length, ps));
        return apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 120.0, 250000.0));
    }

    public FleetFixture checkpoint(String job, String id, long step, double durationS) {
        apply(job, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
        return apply(
                job,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id, step, 1_000_000L, durationS, durationS, "s3://ckpt/" + id, "sha256:" + id, 8, false, 8));
    }

    public FleetFixture checkpointStarted(String job, String id, long step) {
        return apply(job, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
    }

    public FleetFixture progress(String job, long step) {
        return apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(step, 120.0, 250000.0));
    }

    public FleetFixture later(long seconds) {
        clock.set(clock.instant().plusSeconds(seconds));
        return this;
    }

    public FleetFixture apply(String subject, EventType type, EventData data) {
        model.root().apply(event(subject, type, data));
        return this;
    }

    public Event event(String subject, EventType type, EventData data) {
        return new Event("f" + (++ids), "test://fixture", type, subject, clock.instant(), data);
    }

    public ActionPlanner planner() {
        return new ActionPlanner(model.jobs(), model.fleet());
    }
}
