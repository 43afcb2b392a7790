package io.lifeline.domain;

import io.lifeline.domain.fleet.SavedFleet;
import io.lifeline.domain.job.SavedJobs;
import java.util.Objects;

/**
 * The whole model's state as plain, immutable values: the fleet and the jobs, as a checkpoint keeps them. Taken on the
 * thread that applies events ({@code Fleet.save}, {@code Jobs.save}), it shares nothing mutable with the model, so it
 * can be encoded elsewhere; restored into a fresh model and followed by the same events, it gives the reads the saved
 * model gives. How it is encoded is not the domain's business.
 *
 * @param fleet  the node part
 * @param jobs   the jobs
 */
public record SavedModel(SavedFleet fleet, SavedJobs jobs) {

    public SavedModel {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(jobs, "jobs");
    }
}
