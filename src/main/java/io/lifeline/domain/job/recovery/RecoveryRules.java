package io.lifeline.domain.job.recovery;

import java.time.Duration;
import java.util.List;

/**
 * The rules recovery decides by, as data: the table of rules tried in order for each incident (the first that matches
 * decides), their thresholds, each remedy's deadline and the budgets. {@link #version()} names the table: advice
 * records it, so that a decision can be read against the rules that made it.
 *
 * @param version                the rules' version
 * @param workloadErrorAttempts  attempts in a row ended by the same error, at the same step, that make a workload
 *                               error (default 3)
 * @param noProgressAttempts     attempts in a row ended by failures without their checkpoint advancing that stop the
 *                               job (default 3)
 * @param nodeAttempts           attempts in a row whose failures were all on one node that take that node out
 *                               (default 2)
 * @param inPlaceDeadline        time for training to resume after a restart in place (default 10 min)
 * @param excludeDeadline        time to go on without the excluded node (default 15 min); also the time to replace
 *                               the failed pods and to shrink to the survivors (both recreate pods, as an
 *                               exclusion does)
 * @param stopDeadline           time for the job to stop (default 10 min)
 * @param hold                   how long a reached state must have lasted before it counts as verified (default 30 s)
 * @param failureBudget          failures allowed when the job declares none (its torchrun {@code --max-restarts}
 *                               otherwise); null for no limit (default)
 * @param plannedBudget          interruptions with notice or by plan allowed; null for no limit (default)
 */
public record RecoveryRules(
        String version,
        int workloadErrorAttempts,
        int noProgressAttempts,
        int nodeAttempts,
        Duration inPlaceDeadline,
        Duration excludeDeadline,
        Duration stopDeadline,
        Duration hold,
        Integer failureBudget,
        Integer plannedBudget) {

    /** The version of the table below; changes whenever a rule or a default changes meaning. */
    public static final String VERSION = "2";

    /** Rule ids. */
    public static final String WORKLOAD_ERROR = "workload-error";

    public static final String LOST_NODE = "lost-node";
    public static final String FAILING_NODE = "failing-node";
    public static final String FAILING_PODS = "failing-pods";
    public static final String NO_CHECKPOINT_PROGRESS = "no-checkpoint-progress";
    public static final String TRANSIENT = "transient";
    /**
     * Not a rule of the table: a job that heals its own replica failures (TorchFT) gets this instead of a restart in
     * place or a restart without a node.
     */
    public static final String HEALS_ITSELF = "heals-itself";
    /** Not a rule of the table: the next rung after a remedy that did not reach its state. */
    public static final String ESCALATION = "escalation";

    /** One row of the table. */
    public record Rule(String id, Remedy remedy, String when) {}

    public RecoveryRules {
        if (workloadErrorAttempts < 1 || noProgressAttempts < 1 || nodeAttempts < 1) {
            throw new IllegalArgumentException("attempt thresholds must be at least 1");
        }
        for (Duration d : List.of(inPlaceDeadline, excludeDeadline, stopDeadline)) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("deadlines must be positive");
            }
        }
        if (hold == null || hold.isNegative()) {
            throw new IllegalArgumentException("hold must not be negative");
        }
        if (failureBudget != null && failureBudget < 0 || plannedBudget != null && plannedBudget < 0) {
            throw new IllegalArgumentException("budgets must not be negative");
        }
    }

    public static RecoveryRules defaults() {
        return new RecoveryRules(
                VERSION,
                3,
                3,
                2,
                Duration.ofMinutes(10),
                Duration.ofMinutes(15),
                Duration.ofMinutes(10),
                Duration.ofSeconds(30),
                null,
                null);
    }

    /** The table, in the order it is tried. */
    public List<Rule> table() {
        return List.of(
                new Rule(
                        WORKLOAD_ERROR,
                        Remedy.STOP_AND_PAGE,
                        "the last " + workloadErrorAttempts + " attempts each ended with the same error on every"
                                + " failing rank, at the same step"),
                new Rule(
                        LOST_NODE,
                        Remedy.SHRINK_TO_SURVIVORS,
                        "the incident's node terminated or went not ready (it stopped training, or every failure"
                                + " was on it), the job is elastic and the nodes it has left are at least its"
                                + " minimum"),
                new Rule(
                        FAILING_NODE,
                        Remedy.RESTART_EXCLUDING_NODE,
                        "the last " + nodeAttempts + " attempts each failed only on one node, and the job has others"),
                new Rule(
                        NO_CHECKPOINT_PROGRESS,
                        Remedy.STOP_AND_PAGE,
                        "the last " + noProgressAttempts + " attempts ended by failures without their checkpoint"
                                + " advancing"),
                new Rule(
                        FAILING_PODS,
                        Remedy.REPLACE_FAILED_PODS,
                        "the last attempt failed only on one node, the job has others, and torchrun cannot restart"
                                + " the workers where they are (the job's --max-restarts are used up)"),
                new Rule(TRANSIENT, Remedy.RESTART_IN_PLACE, "any other failure"));
    }

    /** How long {@code r} has to reach its expected state. */
    public Duration deadline(Remedy r) {
        return switch (r) {
            case RESTART_IN_PLACE, LEFT_TO_JOB -> inPlaceDeadline;
            case REPLACE_FAILED_PODS, RESTART_EXCLUDING_NODE, SHRINK_TO_SURVIVORS -> excludeDeadline;
            case STOP_AND_PAGE -> stopDeadline;
        };
    }
}
