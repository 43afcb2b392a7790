package io.lifeline.ui;

import io.lifeline.domain.job.TimelinePage;
import io.lifeline.runtime.JobHistory;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The reads views make beyond the shared snapshot (one node, one job), always off the UI thread. */
@ApplicationScoped
public class ModelReads {

    private final ModelRuntime model;
    private final java.time.Clock clock;
    private final JobHistory history;

    ModelReads(ModelRuntime model, java.time.Clock clock, JobHistory history) {
        this.model = model;
        this.clock = clock;
        this.history = history;
    }

    /** A node's panel, empty when the node is unknown. */
    public CompletableFuture<Optional<NodePanelModel>> node(String name) {
        return model.read(m -> m.fleet().node(name).map(d -> new NodePanelModel(d, m.jobs().jobsOn(name))));
    }

    /** A job's detail page, empty when the job is unknown. */
    public CompletableFuture<Optional<JobDetailModel>> job(String name) {
        return model.read(m -> JobDetailPresenter.read(m, name, clock.instant()));
    }

    /**
     * A page of a job's timeline in time order, from memory and, past the in-memory ring, from the stored history;
     * empty when the job is unknown. The same paging as {@code GET /api/v1/jobs/{ns}/{name}/timeline}.
     */
    public CompletionStage<Optional<TimelinePage>> timeline(String job, Instant from, Instant to, String cursor, int limit) {
        return history.timeline(job, from, to, cursor, limit);
    }
}
