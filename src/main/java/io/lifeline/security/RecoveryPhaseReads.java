package io.lifeline.security;

import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * Recovery time by phase as a {@link Scope} may see it: the one read behind
 * {@code GET /api/v1/reliability/recovery-phases} and the Reliability page's section of it, so both show the same
 * figures. A scope limited to namespaces counts the interruptions of its jobs only.
 */
@ApplicationScoped
public class RecoveryPhaseReads {

    /** The windows offered, in their wire form. */
    public static final List<String> WINDOWS = List.of("7d", "30d");
    /** The window read when none is named. */
    public static final String DEFAULT_WINDOW = "7d";

    private final ModelRuntime model;

    RecoveryPhaseReads(ModelRuntime model) {
        this.model = model;
    }

    /** The report over the last {@code days} days grouped {@code by}, read on the model thread. */
    public CompletableFuture<RecoveryPhaseReport> report(Scope scope, int days, PhaseGroupBy by) {
        return model.read(m -> m.jobs().recoveryPhases(days, by, scope.jobFilter()));
    }

    /** The days of a window's wire form ({@code 7d}, {@code 30d}), empty for any other. */
    public static OptionalInt windowDays(String window) {
        return switch (window) {
            case "7d" -> OptionalInt.of(7);
            case "30d" -> OptionalInt.of(30);
            default -> OptionalInt.empty();
        };
    }
}
