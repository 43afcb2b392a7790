package io.lifeline.app;

import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.JobHistory;
import io.lifeline.runtime.ModelCheckpoints;
import io.lifeline.runtime.ModelRebuild;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.store.EventLogReplay;
import io.lifeline.store.PartitionMaintenance;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * Start-up order: make sure the log's partitions exist, start storing the jobs' timelines, rebuild the model (from the
 * newest model checkpoint and the events stored after it, or, without one, from the whole stored log), and only then
 * open ingest (HTTP, Kafka, connectors, the demo) and start taking checkpoints. Until ingest is open, readiness is DOWN.
 */
@ApplicationScoped
public class LifelineStartup {

    private static final Logger LOG = Logger.getLogger(LifelineStartup.class);

    private final PartitionMaintenance partitions;
    private final EventLogReplay replay;
    private final ModelRuntime model;
    private final IngestPipeline pipeline;
    private final jakarta.enterprise.event.Event<IngestOpened> opened;
    private final JobHistory history;
    private final ModelCheckpoints checkpoints;

    LifelineStartup(PartitionMaintenance partitions, EventLogReplay replay, ModelRuntime model, IngestPipeline pipeline,
                    jakarta.enterprise.event.Event<IngestOpened> opened, JobHistory history, ModelCheckpoints checkpoints) {
        this.partitions = partitions;
        this.replay = replay;
        this.model = model;
        this.pipeline = pipeline;
        this.opened = opened;
        this.history = history;
        this.checkpoints = checkpoints;
    }

    void onStart(@Observes StartupEvent ev) throws SQLException {
        long t0 = System.nanoTime();
        partitions.run();
        // Before the replay, so that it stores the timeline entries missing from the history (all of them, the first
        // time a log of an earlier release is replayed).
        history.start();
        ModelRebuild.Result rebuilt = new ModelRebuild(replay, checkpoints, model).run(pipeline::rememberReplayed);
        // Before ingest opens, while the model's position in the log is exact.
        checkpoints.start();
        pipeline.open();
        LOG.infof("Model rebuilt from %s%d stored events in %d ms (log %s); ingest open",
                rebuilt.fromCheckpoint() ? "a checkpoint and the " : "", rebuilt.events(),
                (System.nanoTime() - t0) / 1_000_000, rebuilt.position());
        opened.fire(new IngestOpened());
    }
}
