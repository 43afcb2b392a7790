package io.lifeline.ui;

import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.job.TimelinePage;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.policy.DefaultPolicyService;
import io.lifeline.runtime.JobHistory;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.SpotPricing;
import io.lifeline.security.RecoveryPhaseReads;
import io.lifeline.security.ReliabilityReads;
import io.lifeline.security.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The reads views make beyond the shared snapshot (one node, one job), always off the UI thread, and limited to the
 * {@link Scope} given (the signed-in caller's) as the REST API's are: a job of another namespace, or a node that hosts
 * none of the scope's jobs, reads as unknown.
 */
@ApplicationScoped
public class ModelReads {

    private final ModelRuntime model;
    private final java.time.Clock clock;
    private final JobHistory history;
    private final SpotPricing pricing;
    private final ReliabilityReads reliability;
    private final DefaultPolicyService policies;
    private final RecoveryPhaseReads phases;

    ModelReads(
            ModelRuntime model,
            java.time.Clock clock,
            JobHistory history,
            SpotPricing pricing,
            ReliabilityReads reliability,
            DefaultPolicyService policies,
            RecoveryPhaseReads phases) {
        this.policies = policies;
        this.phases = phases;
        this.model = model;
        this.clock = clock;
        this.history = history;
        this.pricing = pricing;
        this.reliability = reliability;
    }

    /**
     * Fleet reliability over {@code days} grouped {@code by}, of {@code cause} (null: all), counting only the nodes
     * the scope may see: the read of {@code GET /api/v1/fleet/reliability}.
     */
    public CompletableFuture<ReliabilityReport> reliability(
            Scope scope, int days, GroupBy by, InterruptionCause cause) {
        return reliability.report(scope, days, by, cause);
    }

    /**
     * Recovery time by phase over {@code days} grouped {@code by}, of the scope's jobs: the read of
     * {@code GET /api/v1/reliability/recovery-phases}.
     */
    public CompletableFuture<RecoveryPhaseReport> recoveryPhases(Scope scope, int days, PhaseGroupBy by) {
        return phases.report(scope, days, by);
    }

    /** A node's panel (its jobs those of the scope), empty when the node is unknown or outside the scope. */
    public CompletableFuture<Optional<NodePanelModel>> node(Scope scope, String name) {
        return model.read(m -> {
            if (!Scope.nodeFilter(
                            scope.isEverything()
                                    ? null
                                    : scope.nodesUsed(m.jobs().jobsByNode()))
                    .test(name)) {
                return Optional.<NodePanelModel>empty();
            }
            return m.fleet()
                    .node(name)
                    .map(d -> new NodePanelModel(
                            scope.visible(d), scope.visibleJobs(m.jobs().jobsOn(name))));
        });
    }

    /** A job's detail page, empty when the job is unknown or outside the scope. */
    public CompletableFuture<Optional<JobDetailModel>> job(Scope scope, String name) {
        if (!scope.allowsJob(name)) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        var engine = policies.engine();
        return model.read(m -> JobDetailPresenter.read(m, name, clock.instant(), pricing.prices(), engine));
    }

    /**
     * A page of a job's timeline in time order, from memory and, past the in-memory ring, from the stored history;
     * empty when the job is unknown or outside the scope. The same paging as
     * {@code GET /api/v1/jobs/{ns}/{name}/timeline}.
     */
    public CompletionStage<Optional<TimelinePage>> timeline(
            Scope scope, String job, Instant from, Instant to, String cursor, int limit) {
        if (!scope.allowsJob(job)) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return history.timeline(job, from, to, cursor, limit);
    }
}
