package io.lifeline.runtime;

import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.SavedModel;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.storage.StorageSettings;
import io.lifeline.domain.storage.StorageTargets;

/**
 * The model the application runs: the core's {@link LifelineModel} with the {@link Fleet} as its node part, so
 * readers get the fleet's own read methods. Touched only on the model thread (see {@link ModelRuntime}).
 *
 * @param root   routes events to the fleet and the jobs
 * @param fleet  the node part of {@code root}
 */
public record LiveModel(LifelineModel root, Fleet fleet) {

    public static LiveModel create(java.time.Clock clock) {
        return create(clock, io.lifeline.domain.job.JobsConfig.defaults());
    }

    /** A model whose jobs use {@code jobsConfig} (for example the shared file systems checkpoints may be on). */
    public static LiveModel create(java.time.Clock clock, io.lifeline.domain.job.JobsConfig jobsConfig) {
        return create(clock, jobsConfig, StorageSettings.defaults());
    }

    /** A model whose storage targets are learned with {@code storage}. */
    public static LiveModel create(
            java.time.Clock clock, io.lifeline.domain.job.JobsConfig jobsConfig, StorageSettings storage) {
        Fleet fleet = new Fleet(clock);
        return new LiveModel(
                new LifelineModel(fleet, new Jobs(fleet, clock, jobsConfig), new StorageTargets(storage), clock),
                fleet);
    }

    public StorageTargets storage() {
        return root.storage();
    }

    public Jobs jobs() {
        return root.jobs();
    }

    io.lifeline.domain.event.ApplyOutcome apply(Event e) {
        return root.apply(e);
    }

    /** The whole model's state as plain values (on the model thread; it shares nothing mutable with the model). */
    SavedModel save() {
        return new SavedModel(fleet.save(), root.jobs().save(), root.storage().save());
    }

    /** Takes back a saved state into this model, which must be new (nothing applied yet). */
    void restore(SavedModel saved) {
        fleet.restore(saved.fleet());
        root.jobs().restore(saved.jobs());
        root.storage().restore(saved.storage());
    }
}
