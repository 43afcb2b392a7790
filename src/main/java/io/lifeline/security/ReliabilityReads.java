package io.lifeline.security;

import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * Fleet reliability as a {@link Scope} may see it: the one read behind {@code GET /api/v1/fleet/reliability} and
 * the dashboard's Reliability page, so both show the same figures. A scope limited to namespaces counts only the
 * nodes that host ranks of its jobs now (their service, interruptions and lemons); the rest of the fleet is left out
 * of its rows, not merely hidden.
 */
@ApplicationScoped
public class ReliabilityReads {

    /** The windows offered, in their wire form. */
    public static final List<String> WINDOWS = List.of("7d", "30d", "90d");
    /** The window read when none is named. */
    public static final String DEFAULT_WINDOW = "30d";

    private final ModelRuntime model;

    ReliabilityReads(ModelRuntime model) {
        this.model = model;
    }

    /**
     * The report over {@code days} whole UTC days grouped {@code by}, counting {@code cause} only (null: every cause),
     * read on the model thread.
     */
    public CompletableFuture<ReliabilityReport> report(Scope scope, int days, GroupBy by, InterruptionCause cause) {
        return model.read(m -> m.fleet()
                .reliability(
                        days,
                        by,
                        cause,
                        scope.isEverything()
                                ? null
                                : Scope.nodeFilter(scope.nodesUsed(m.jobs().jobsByNode()))));
    }

    /** The days of a window's wire form ({@code 7d}, {@code 30d}, {@code 90d}), empty for any other. */
    public static OptionalInt windowDays(String window) {
        return switch (window) {
            case "7d" -> OptionalInt.of(7);
            case "30d" -> OptionalInt.of(30);
            case "90d" -> OptionalInt.of(90);
            default -> OptionalInt.empty();
        };
    }
}
