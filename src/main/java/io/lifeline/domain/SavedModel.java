package io.lifeline.domain;

import io.lifeline.domain.fleet.SavedFleet;
import io.lifeline.domain.job.SavedJobs;
import io.lifeline.domain.storage.SavedStorage;
import java.util.Objects;

/**
 * The whole model's state as plain, immutable values: the fleet and the jobs, as a checkpoint keeps them. Taken on the
 * thread that applies events ({@code Fleet.save}, {@code Jobs.save}), it shares nothing mutable with the model, so it
 * can be encoded elsewhere; restored into a fresh model and followed by the same events, it gives the reads the saved
 * model gives. How it is encoded is not the domain's business.
 *
 * @param fleet    the node part
 * @param jobs     the jobs
 * @param storage  the storage targets (empty when none were learned)
 */
public record SavedModel(SavedFleet fleet, SavedJobs jobs, SavedStorage storage) {

    public SavedModel {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(jobs, "jobs");
        storage = storage == null ? SavedStorage.empty() : storage;
    }

    /** A model without storage targets. */
    public SavedModel(SavedFleet fleet, SavedJobs jobs) {
        this(fleet, jobs, null);
    }
}
