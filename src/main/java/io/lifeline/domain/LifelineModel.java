package io.lifeline.domain;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.NodeChange;
import io.lifeline.domain.fleet.NodeModel;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.storage.StorageAdvice;
import io.lifeline.domain.storage.StorageSettings;
import io.lifeline.domain.storage.StorageTargets;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The whole live model: nodes and jobs. Node and GPU events go to the node model, and the signals it
 * raises reach the jobs with ranks on that node; job, scheduler and trainer events go to the jobs, and the checkpoint
 * events the jobs applied also to the storage targets. Not thread-safe, like its parts.
 */
public final class LifelineModel {

    private final NodeModel nodes;
    private final Jobs jobs;
    private final StorageTargets storage;
    private final Clock clock;

    /** A model whose jobs read node facts from {@code nodes} and "now" from {@code clock}. */
    public LifelineModel(NodeModel nodes, Clock clock) {
        this(nodes, new Jobs(nodes, clock), new StorageTargets(StorageSettings.defaults()), clock);
    }

    /** A model whose storage figures ("time until full", who still writes) read "now" from {@code clock}. */
    public LifelineModel(NodeModel nodes, Jobs jobs, StorageTargets storage, Clock clock) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.storage = Objects.requireNonNull(storage, "storage");
        this.clock = Objects.requireNonNull(clock, "clock");
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
        ApplyOutcome outcome = jobs.apply(e);
        if (outcome.applied()) {
            storage.apply(e);
        }
        return outcome;
    }

    /**
     * A job's checkpoint-interval advice, read against the ETTR target when it has one and against the write
     * bandwidth of the storage targets it writes to.
     */
    public Optional<IntervalAdvice> advice(String job, OptionalDouble ettrTarget) {
        return jobs.advice(job, ettrTarget).map(a -> StorageAdvice.apply(a, storage, clock.instant()));
    }

    public StorageTargets storage() {
        return storage;
    }

    public NodeModel nodes() {
        return nodes;
    }

    public Jobs jobs() {
        return jobs;
    }
}
