package io.lifeline.api.read;

import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.RecoveryPhaseReads;
import io.lifeline.security.Scope;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletionStage;

/**
 * Recovery time split by phase (detection, decision, rescheduling, rendezvous, restore, lost rework) over the closed
 * interruptions of the last 7 or 30 days, per cause, per pool or per both, and for them all: count, median, 90th
 * percentile, maximum and total seconds per phase, with the GPU-hours each phase held. A caller limited to
 * namespaces counts its jobs' interruptions only. The dashboard's Reliability page reads the same
 * {@link RecoveryPhaseReads}.
 */
@Path("/api/v1/reliability/recovery-phases")
@Produces(MediaType.APPLICATION_JSON)
public class RecoveryPhasesResource {

    private final RecoveryPhaseReads reads;
    private final CurrentCaller callers;

    RecoveryPhasesResource(RecoveryPhaseReads reads, CurrentCaller callers) {
        this.reads = reads;
        this.callers = callers;
    }

    @GET
    public CompletionStage<RecoveryPhaseReport> recoveryPhases(
            @QueryParam("window") String window, @QueryParam("by") String by) {
        String w = window == null || window.isBlank() ? RecoveryPhaseReads.DEFAULT_WINDOW : window;
        int days = RecoveryPhaseReads.windowDays(w)
                .orElseThrow(() -> new InvalidEventException("window: must be one of "
                        + String.join(", ", RecoveryPhaseReads.WINDOWS) + ", got '" + window + "'"));
        PhaseGroupBy group = QueryParams.enumValue("by", by, PhaseGroupBy.class);
        return reads.report(Scope.of(callers.get()), days, group == null ? PhaseGroupBy.CAUSE : group);
    }
}
