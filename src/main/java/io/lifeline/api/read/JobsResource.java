package io.lifeline.api.read;

import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.TimelinePage;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputRollup;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.RollupDimension;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.hang.StackCaptureView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.domain.job.spot.SpotReport;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.domain.objective.JobObjectives;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.policy.DefaultPolicyService;
import io.lifeline.runtime.JobHistory;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.SpotPricing;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Read API of jobs: list, detail, interruption timeline, checkpoints with lineage, freshness, membership history,
 * goodput, checkpoint-interval advice and the spot placement report. A job is addressed as {@code /api/v1/jobs/{namespace}/{name}}.
 *
 * <p>Every answer is limited to the caller's {@link Scope}: lists and rollups count only the jobs of its namespaces,
 * and a job outside them is answered 404, as if it did not exist.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    private final ModelRuntime model;
    private final JobHistory history;
    private final CurrentCaller callers;
    private final SpotPricing pricing;
    private final DefaultPolicyService policies;

    JobsResource(
            ModelRuntime model,
            JobHistory history,
            CurrentCaller callers,
            SpotPricing pricing,
            DefaultPolicyService policies) {
        this.policies = policies;
        this.model = model;
        this.history = history;
        this.callers = callers;
        this.pricing = pricing;
    }

    @GET
    @Path("/jobs")
    public CompletionStage<Page<JobSummary>> jobs(
            @QueryParam("namespace") String namespace,
            @QueryParam("state") String state,
            @QueryParam("breached") String breached,
            @QueryParam("limit") Integer limit,
            @QueryParam("offset") Integer offset,
            @QueryParam("cursor") String cursor) {
        JobFilter f = new JobFilter(
                namespace == null || namespace.isBlank() ? null : namespace,
                QueryParams.enumValue("state", state, JobState.class),
                QueryParams.bool("breached", breached));
        int n = QueryParams.limit(limit, 100, 1000);
        int from = QueryParams.position(offset, cursor);
        Scope scope = scope();
        // Summaries only for the page's rows (every job's only for a breached filter): the model's thread is held for a
        // look at each job, not a summary of each.
        return model.read(m -> {
            Jobs.JobPage page = m.jobs().page(f, scope.namespaceFilter(), from, n);
            return Page.at(page.items(), page.total(), from, n);
        });
    }

    @GET
    @Path("/jobs/{namespace}/{name}")
    public CompletionStage<JobDetail> job(@PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().detail(job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/timeline")
    public CompletionStage<TimelinePage> timeline(
            @PathParam("namespace") String ns,
            @PathParam("name") String name,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        Instant f = QueryParams.instant("from", from);
        Instant t = QueryParams.instant("to", to);
        int n = QueryParams.limit(limit, 100, 1000);
        String job = visibleJob(ns, name);
        // Memory first; entries that left the in-memory ring come from the stored history, under the same cursor.
        return history.timeline(job, f, t, cursor, n).thenApply(p -> p.orElseThrow(() -> NotFound.job(job)));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/incidents")
    @APIResponse(
            responseCode = "200",
            description = "A page of incidents, oldest first; older ones follow the Link header",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = IncidentView.class)))
    public CompletionStage<Response> incidents(
            @PathParam("namespace") String ns,
            @PathParam("name") String name,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        String job = visibleJob(ns, name);
        int n = pageLimit(cursor, limit);
        // Without cursor and limit: what memory holds, as before; older incidents follow the Link header.
        return history.incidents(job, cursor, n)
                .thenApply(p -> p.map(page ->
                                withNext(Response.ok(page.items()), "incidents", ns, name, page.nextCursor(), limit))
                        .orElseThrow(() -> NotFound.job(job)));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/checkpoints")
    @APIResponse(
            responseCode = "200",
            description = "The checkpoint history with a page of checkpoints, oldest first; "
                    + "older ones follow the Link header",
            content = @Content(schema = @Schema(implementation = CheckpointHistory.class)))
    public CompletionStage<Response> checkpoints(
            @PathParam("namespace") String ns,
            @PathParam("name") String name,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        String job = visibleJob(ns, name);
        int n = pageLimit(cursor, limit);
        return history.checkpoints(job, cursor, n)
                .thenApply(p -> p.map(page -> withNext(
                                Response.ok(page.history()), "checkpoints", ns, name, page.nextCursor(), limit))
                        .orElseThrow(() -> NotFound.job(job)));
    }

    /** 0 (what memory holds) for a first page asked without a limit, else the limit asked (default 100, at most 1000). */
    private static int pageLimit(String cursor, Integer limit) {
        return (cursor == null || cursor.isEmpty()) && limit == null ? 0 : QueryParams.limit(limit, 100, 1000);
    }

    /** The response, with a {@code Link rel="next"} header to the older records when there are some. */
    private static Response withNext(
            Response.ResponseBuilder ok, String what, String ns, String name, String next, Integer limit) {
        if (next != null) {
            ok.header(
                    "Link",
                    "</api/v1/jobs/" + ns + "/" + name + "/" + what + "?cursor=" + next + "&limit="
                            + QueryParams.limit(limit, 100, 1000) + ">; rel=\"next\"");
        }
        return ok.build();
    }

    @GET
    @Path("/jobs/{namespace}/{name}/freshness")
    public CompletionStage<FreshnessView> freshness(@PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().freshness(job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/membership")
    public CompletionStage<MembershipView> membership(
            @PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().membership(job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/stragglers")
    public CompletionStage<StragglerView> stragglers(
            @PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().stragglers(job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/hang")
    public CompletionStage<HangVerdict> hang(@PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().hang(job));
    }

    /** The job's newest stack capture; visible, like the job, only to callers of its namespace (stacks name files). */
    @GET
    @Path("/jobs/{namespace}/{name}/stacks")
    public CompletionStage<StackCaptureView> stacks(
            @PathParam("namespace") String ns, @PathParam("name") String name, @QueryParam("request") String request) {
        String job = visibleJob(ns, name);
        String requestId = request == null || request.isBlank() ? null : request;
        return model.read(m -> {
            if (m.jobs().detail(job).isEmpty()) {
                throw NotFound.job(job);
            }
            return m.jobs().stacks(job, requestId).orElseThrow(() -> NotFound.stacks(job, requestId));
        });
    }

    /** The job's attempts: each (re)start, how it ended, the progress it made, whether its checkpoint advanced. */
    @GET
    @Path("/jobs/{namespace}/{name}/attempts")
    public CompletionStage<List<Attempt>> attempts(@PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().attempts(job));
    }

    /** The job's recovery: the ladder's mode and rules, the two budgets, the advice per incident and the attempts. */
    @GET
    @Path("/jobs/{namespace}/{name}/recovery")
    public CompletionStage<RecoveryView> recovery(@PathParam("namespace") String ns, @PathParam("name") String name) {
        PolicyEngine engine = policies.engine();
        return one(ns, name, job -> m -> engine.recoveryView(m.jobs(), job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/goodput")
    public CompletionStage<GoodputView> goodput(@PathParam("namespace") String ns, @PathParam("name") String name) {
        return one(ns, name, job -> m -> m.jobs().goodput(job));
    }

    @GET
    @Path("/jobs/{namespace}/{name}/advice")
    public CompletionStage<IntervalAdvice> advice(@PathParam("namespace") String ns, @PathParam("name") String name) {
        JobObjectives objectives = policies.engine().objectives();
        return one(ns, name, job -> m -> m.root().advice(job, objectives.ettrTarget(job)));
    }

    /**
     * The job and spot capacity: where rank 0 and the rendezvous endpoint run (flagged on spot while its pools offer
     * on-demand), the checkpoint interval advised per capacity type, and the spot-vs-on-demand verdict at the
     * configured prices ({@code lifeline.spot.price}).
     */
    @GET
    @Path("/jobs/{namespace}/{name}/spot")
    public CompletionStage<SpotReport> spot(@PathParam("namespace") String ns, @PathParam("name") String name) {
        SpotPrices prices = pricing.prices();
        return one(ns, name, job -> m -> m.jobs().spot(job, prices));
    }

    /** Goodput rolled up by pool, capacity type, namespace or the whole fleet. */
    @GET
    @Path("/goodput")
    public CompletionStage<List<GoodputRollup>> rollup(@QueryParam("by") String by) {
        RollupDimension d = by == null || by.isBlank()
                ? RollupDimension.FLEET
                : QueryParams.enumValue("by", by, RollupDimension.class);
        Scope scope = scope();
        return model.read(
                m -> scope.isEverything() ? m.jobs().rollup(d) : m.jobs().rollup(d, scope.namespaceFilter()));
    }

    private <T> CompletionStage<T> one(
            String ns, String name, Function<String, Function<io.lifeline.runtime.LiveModel, Optional<T>>> q) {
        String job = visibleJob(ns, name);
        Function<io.lifeline.runtime.LiveModel, Optional<T>> query = q.apply(job);
        return model.read(m -> query.apply(m).orElseThrow(() -> NotFound.job(job)));
    }

    private Scope scope() {
        return Scope.of(callers.get());
    }

    /** The job's key, or 404 (the same answer as for an unknown job) when it lies outside the caller's scope. */
    private String visibleJob(String ns, String name) {
        String job = ns + "/" + name;
        if (!scope().allowsNamespace(ns)) {
            throw NotFound.job(job);
        }
        return job;
    }
}
