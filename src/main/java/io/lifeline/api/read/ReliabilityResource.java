package io.lifeline.api.read;

import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.ReliabilityReads;
import io.lifeline.security.Scope;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * Fleet reliability: MTBF and interruption rate per pool, zone, instance type or capacity type, by cause, over 7, 30
 * or 90 days, with exact intervals, and the lemon nodes with their interruptions. A caller limited to namespaces
 * sees the figures of the nodes that host ranks of its jobs now. The dashboard's Reliability page reads the same
 * {@link ReliabilityReads}.
 */
@Path("/api/v1/fleet/reliability")
@Produces(MediaType.APPLICATION_JSON)
public class ReliabilityResource {

    private final ReliabilityReads reads;
    private final CurrentCaller callers;

    ReliabilityResource(ReliabilityReads reads, CurrentCaller callers) {
        this.reads = reads;
        this.callers = callers;
    }

    @GET
    public CompletionStage<ReliabilityReport> reliability(
            @QueryParam("window") String window,
            @QueryParam("groupBy") String groupBy,
            @QueryParam("cause") String cause) {
        int days = windowDays(window);
        GroupBy by = groupBy == null || groupBy.isBlank()
                ? GroupBy.POOL
                : GroupBy.fromWire(groupBy)
                        .orElseThrow(() -> new InvalidEventException("groupBy: must be one of "
                                + Arrays.stream(GroupBy.values())
                                        .map(GroupBy::wire)
                                        .collect(Collectors.joining(", "))
                                + ", got '" + groupBy + "'"));
        InterruptionCause c = cause == null || cause.isBlank()
                ? null
                : InterruptionCause.fromWire(cause)
                        .orElseThrow(() -> new InvalidEventException("cause: must be one of "
                                + Arrays.stream(InterruptionCause.values())
                                        .map(InterruptionCause::wire)
                                        .collect(Collectors.joining(", "))
                                + ", got '" + cause + "'"));
        return reads.report(Scope.of(callers.get()), days, by, c);
    }

    /** {@code 7d}, {@code 30d} or {@code 90d}; 30 days when absent. */
    static int windowDays(String window) {
        String w = window == null || window.isBlank() ? ReliabilityReads.DEFAULT_WINDOW : window;
        return ReliabilityReads.windowDays(w)
                .orElseThrow(() -> new InvalidEventException("window: must be one of "
                        + String.join(", ", ReliabilityReads.WINDOWS) + ", got '" + window + "'"));
    }
}
