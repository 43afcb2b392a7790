package io.lifeline.domain;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.NodeChange;
import io.lifeline.domain.fleet.NodeModel;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.Jobs;
import java.time.Clock;
import java.util.Objects;

/**
 * The whole live model: nodes and jobs. Node and GPU events go to the node model, and the signals it
 * raises reach the jobs with ranks on that node; job, scheduler and trainer events go to the jobs.
 * Not thread-safe, like its parts.
 */
public final class LifelineModel {

    private final NodeModel nodes;
    private final Jobs jobs;

    /** A model whose jobs read node facts from {@code nodes} and "now" from {@code clock}. */
    public LifelineModel(NodeModel nodes, Clock clock) {
        this(nodes, new Jobs(nodes, clock));
    }

    public LifelineModel(NodeModel nodes, Jobs jobs) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    /**
     * Routes one event to the part it is about.
     *
     * @return what it did to the model: changed, a repeat, or not applied with the reason
     */
    public ApplyOutcome apply(Event e) {
        if (e.type().family().subjectIsNode()) {
            NodeChange change = nodes.change(e);
            for (NodeSignal s : change.signals()) {
                jobs.onNodeSignal(s);
            }
            return change.outcome();
        }
        return jobs.apply(e);
    }

    public NodeModel nodes() {
        return nodes;
    }

    public Jobs jobs() {
        return jobs;
    }
}
