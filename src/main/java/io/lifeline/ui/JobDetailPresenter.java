package io.lifeline.ui;

import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.runtime.LiveModel;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Reads everything the job detail page needs in one model read. */
public final class JobDetailPresenter {

    private JobDetailPresenter() {}

    /**
     * Runs on the model thread; {@code policies} gives the recovery ladder's mode and rules, and the objectives the
     * interval advice is read against.
     */
    static Optional<JobDetailModel> read(
            LiveModel m, String job, Instant now, SpotPrices prices, PolicyEngine policies) {
        Jobs jobs = m.jobs();
        Optional<JobDetail> d = jobs.detail(job);
        if (d.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new JobDetailModel(
                now,
                d.get(),
                jobs.incidents(job).orElse(List.of()),
                jobs.checkpoints(job).orElse(null),
                jobs.membership(job).orElse(null),
                m.root().advice(job, policies.objectives().ettrTarget(job)).orElse(null),
                jobs.spot(job, prices).orElse(null),
                jobs.hang(job).orElse(null),
                jobs.stacks(job).orElse(null),
                policies.recoveryView(jobs, job).orElse(null),
                m.storage().ofJob(job, now)));
    }
}
