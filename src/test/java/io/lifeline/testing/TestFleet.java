package io.lifeline.testing;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.quarkus.arc.Arc;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Nodes and jobs for {@code @QuarkusTest}s, submitted through the real ingest pipeline as catalogue events dated
 * now, and applied before each method returns.
 */
public final class TestFleet {

    private final IngestGateway gateway =
            Arc.container().instance(IngestGateway.class).get();
    private final ModelRuntime runtime =
            Arc.container().instance(ModelRuntime.class).get();

    public TestFleet node(String name, String pool) {
        send(
                name,
                EventType.NODE_REGISTERED,
                new NodeData.Registered(
                        pool, CapacityType.SPOT, "us-east-1a", "p5.48xlarge", 8, "aws:///us-east-1a/i-" + name));
        return send(name, EventType.NODE_READY, new NodeData.Ready());
    }

    /** A running job with 8 ranks per node; elastic between min and max when min > 0; last step 100. */
    public TestFleet job(String job, int min, int max, String... nodes) {
        ElasticPolicy elastic = min > 0 ? new ElasticPolicy(min, max, 8, 3) : null;
        send(
                job,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(job.substring(0, job.indexOf('/')), "alice", "high", elastic, 8, 1800L));
        send(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue"));
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            ps.add(new TrainerData.Participant(nodes[i], i * 8, 8));
        }
        send(job, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("run-1", 1, 8 * nodes.length, ps));
        return progress(job, 100);
    }

    public TestFleet progress(String job, long step) {
        return send(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(step, 120.0, 250000.0));
    }

    public TestFleet checkpoint(String job, String id, long step, double durationS) {
        send(job, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
        return send(
                job,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id, step, 1_000_000L, durationS, durationS, "s3://ckpt/" + id, "sha256:" + id, 8, false, 8));
    }

    public TestFleet send(String subject, EventType type, EventData data) {
        return send(new Event(UUID.randomUUID().toString(), "test://fleet", type, subject, Instant.now(), data));
    }

    public TestFleet send(Event e) {
        try {
            gateway.submit(List.of(e)).toCompletableFuture().get(30, TimeUnit.SECONDS);
            runtime.barrier().get(30, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new IllegalStateException("could not submit " + e.type().wireName() + " of " + e.subject(), ex);
        }
        return this;
    }
}
