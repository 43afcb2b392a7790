package io.lifeline.app;

import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.EventLogTail;
import io.lifeline.eventlog.PartitionMaintenance;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.JobHistory;
import io.lifeline.runtime.ModelCheckpoints;
import io.lifeline.runtime.ModelRebuild;
import io.lifeline.runtime.ModelRuntime;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Start-up order: make sure the log's partitions exist, start storing the jobs' timelines, rebuild the model (from the
 * newest model checkpoint and the events stored after it, or from the whole stored log, read in seq order, the order
 * it was committed in), start taking checkpoints, and only then open ingest (HTTP, Kafka, connectors, the demo) and
 * follow the log live. Until it is open, readiness is DOWN. At shutdown it pauses the scheduled jobs (alert
 * evaluation and delivery, partition maintenance, token last-use flushes) with the rest of the background work, before
 * the connection pool closes ({@link ShutdownOrder}).
 */
@ApplicationScoped
public class LifelineStartup {

    private static final Logger LOG = Logger.getLogger(LifelineStartup.class);

    private final PartitionMaintenance partitions;
    private final EventLogTail log;
    private final ModelRuntime model;
    private final IngestPipeline pipeline;
    private final jakarta.enterprise.event.Event<IngestOpened> opened;
    private final JobHistory history;
    private final ModelCheckpoints checkpoints;
    private final Scheduler scheduler;

    LifelineStartup(
            PartitionMaintenance partitions,
            EventLogTail log,
            ModelRuntime model,
            IngestPipeline pipeline,
            jakarta.enterprise.event.Event<IngestOpened> opened,
            JobHistory history,
            ModelCheckpoints checkpoints,
            Scheduler scheduler) {
        this.checkpoints = checkpoints;
        this.scheduler = scheduler;
        this.partitions = partitions;
        this.log = log;
        this.model = model;
        this.pipeline = pipeline;
        this.opened = opened;
        this.history = history;
    }

    void onStart(@Observes StartupEvent ev) throws SQLException {
        long t0 = System.nanoTime();
        partitions.run();
        // Before the replay, so that it stores the timeline entries missing from the history (all of them, the first
        // time a log of an earlier release is replayed).
        history.start();
        ModelRebuild.Result rebuilt = new ModelRebuild(log, checkpoints, model).run(following(Duration.ofMinutes(5)));
        // Before ingest opens, while nothing but the log has been applied.
        checkpoints.start();
        pipeline.open();
        // From now on every event any replica stores reaches this model through the log too; this replica's own rows
        // are passed over once its model applied them as it stored them.
        model.onStoredQueued(log::appliedHere);
        log.follow(following(Duration.ofSeconds(30)));
        LOG.infof(
                "Model rebuilt from %s%d stored events in %d ms (log %s); ingest open",
                rebuilt.fromCheckpoint() ? "a checkpoint and the next " : "",
                rebuilt.events(),
                (System.nanoTime() - t0) / 1_000_000,
                rebuilt.position());
        opened.fire(new IngestOpened());
    }

    void onStop(@Observes @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        scheduler.pause();
    }

    /** Hands rows read back from the log to the model, remembering their ids so that a redelivery is a duplicate. */
    private EventLogTail.Sink following(Duration timeout) {
        return new EventLogTail.Sink() {
            @Override
            public void accept(List<Event> events, long[] seqs) {
                for (Event e : events) {
                    if (e != null) {
                        pipeline.rememberReplayed(e);
                    }
                }
                model.enqueueFollowed(events, seqs, timeout);
            }

            @Override
            public void passed(long through) {
                model.enqueuePassed(through, timeout);
            }
        };
    }
}
