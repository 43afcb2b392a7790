package io.lifeline.api.read;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.replay.FleetCounterfactual;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.WhatIfReport;
import io.lifeline.domain.replay.WhatIfRequest;
import io.lifeline.policy.NoticePolicyGain;
import io.lifeline.runtime.WhatIfService;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code POST /api/v1/whatif}: a job's (or an uploaded trace's) interruptions replayed through the model with other
 * checkpoint intervals, checkpoint cost, notice lead and policy, and capacity type, side by side with what happened
 * (docs/whatif.md, docs/api.md). A job outside the caller's scope is answered 404, as if it did not exist.
 */
@Path("/api/v1/whatif")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class WhatIfResource {

    private final WhatIfService whatIf;
    private final CurrentCaller callers;
    private final NoticePolicyGain gain;

    WhatIfResource(WhatIfService whatIf, CurrentCaller callers, NoticePolicyGain gain) {
        this.whatIf = whatIf;
        this.callers = callers;
        this.gain = gain;
    }

    /**
     * {@code GET /api/v1/whatif/counterfactual}: the recent jobs the caller may see, their ETTR as measured and as the
     * same interruption history would have given without the notice policy. Precomputed: this only sums the latest
     * replays.
     */
    @GET
    @Path("/counterfactual")
    public FleetCounterfactual counterfactual() {
        return gain.of(Scope.of(callers.get()));
    }

    /**
     * The request body.
     *
     * @param job                    {@code namespace/name} of a job of the live model (or, with a trace, of the trace)
     * @param trace                  a trace to replay instead of a live job
     * @param intervalsSeconds       intervals to try
     * @param advice                 whether to try the advised interval too (default true)
     * @param checkpointCostSeconds  C to assume
     * @param recoverySeconds        recovery per interruption to assume
     * @param noticeLeadSeconds      notice lead to assume
     * @param noticePolicy           notice policy settings to try
     * @param capacity               capacity types to try ({@code spot}, {@code on-demand})
     */
    public record Body(
            String job,
            TraceBody trace,
            List<Double> intervalsSeconds,
            Boolean advice,
            Double checkpointCostSeconds,
            Double recoverySeconds,
            Double noticeLeadSeconds,
            List<Boolean> noticePolicy,
            List<String> capacity) {}

    /**
     * An uploaded trace.
     *
     * @param format   {@code philly-csv}, {@code philly-json}, {@code opt175b} or {@code lifeline}
     * @param content  the file's text
     */
    public record TraceBody(String format, String content) {}

    @POST
    public CompletionStage<WhatIfReport> whatIf(Body body) {
        if (body == null) {
            throw new IllegalArgumentException("body: a JSON object with job (or trace) is required");
        }
        WhatIfRequest request = request(body);
        if (body.trace() != null) {
            TraceBody t = body.trace();
            TraceFormat format = TraceFormat.fromWire(t.format())
                    .orElseThrow(() -> new IllegalArgumentException("trace.format: one of "
                            + Arrays.stream(TraceFormat.values())
                                    .map(TraceFormat::wire)
                                    .toList() + ", got " + t.format()));
            if (t.content() == null || t.content().isBlank()) {
                throw new IllegalArgumentException("trace.content: the trace's text is required");
            }
            if (t.content().getBytes(StandardCharsets.UTF_8).length > whatIf.maxTraceBytes()) {
                throw new IllegalArgumentException(
                        "trace.content: larger than lifeline.whatif.max-trace-bytes (" + whatIf.maxTraceBytes() + ")");
            }
            return whatIf.trace(format, t.content(), blankToNull(body.job()), request);
        }
        String job = blankToNull(body.job());
        if (job == null || job.indexOf('/') <= 0 || job.indexOf('/') == job.length() - 1) {
            throw new IllegalArgumentException("job: namespace/name of a job is required (or a trace)");
        }
        if (!Scope.of(callers.get()).allowsNamespace(job.substring(0, job.indexOf('/')))) {
            throw NotFound.job(job);
        }
        return whatIf.job(job, request).thenApply(r -> r.orElseThrow(() -> NotFound.job(job)));
    }

    private static WhatIfRequest request(Body b) {
        List<CapacityType> caps = new ArrayList<>();
        if (b.capacity() != null) {
            for (String c : b.capacity()) {
                CapacityType t = CapacityType.fromWireName(c);
                if (t == null || t == CapacityType.RESERVED) {
                    throw new IllegalArgumentException("capacity: spot or on-demand, got " + c);
                }
                caps.add(t);
            }
        }
        if (b.noticePolicy() != null && b.noticePolicy().contains(null)) {
            throw new IllegalArgumentException("noticePolicy: true or false, got null");
        }
        return new WhatIfRequest(
                b.intervalsSeconds(),
                b.advice() == null || b.advice(),
                b.checkpointCostSeconds(),
                b.recoverySeconds(),
                b.noticeLeadSeconds(),
                b.noticePolicy(),
                caps);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
