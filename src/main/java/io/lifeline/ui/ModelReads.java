package io.lifeline.ui;

import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The reads views make beyond the shared snapshot (one node, one job), always off the UI thread. */
@ApplicationScoped
public class ModelReads {

    private final ModelRuntime model;
    private final java.time.Clock clock;

    ModelReads(ModelRuntime model, java.time.Clock clock) {
        this.model = model;
        this.clock = clock;
    }

    /** A node's panel, empty when the node is unknown. */
    public CompletableFuture<Optional<NodePanelModel>> node(String name) {
        return model.read(m -> m.fleet().node(name).map(d -> new NodePanelModel(d, m.jobs().jobsOn(name))));
    }

    /** A job's detail page, empty when the job is unknown. */
    public CompletableFuture<Optional<JobDetailModel>> job(String name) {
        return model.read(m -> JobDetailPresenter.read(m, name, clock.instant()));
    }
}
