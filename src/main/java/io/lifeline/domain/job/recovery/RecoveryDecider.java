package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.WorkerFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides the first remedy for an incident that stopped training, from what the job's attempts taught: the rules of
 * {@link RecoveryRules#table()} are tried in order and the first that matches decides. Interruptions that came with
 * notice or by plan are left to the policies that answer them (none is decided here). Pure.
 */
public final class RecoveryDecider {

    private static final int MAX_EVIDENCE = 16;

    private RecoveryDecider() {}

    /**
     * The advice for {@code incident}, or null when recovery decides nothing for it (a planned interruption, or one
     * that did not stop training).
     *
     * @param attempts  the job's attempts (see {@link Attempts}), oldest first; the one {@code incident} ended among
     *                  them
     * @param mode      the policy's mode ({@code on} or {@code dry-run})
     */
    public static Advice decide(
            RecoveryRules rules, String job, IncidentView incident, List<Attempt> attempts, String mode, Instant now) {
        return decide(rules, job, incident, attempts, null, mode, now);
    }

    /**
     * As {@link #decide(RecoveryRules, String, IncidentView, List, String, Instant)}, for a job that may heal itself:
     * when {@code healer} names what heals it (TorchFT), a rule that would restart the job in place or without a node
     * advises {@link Remedy#LEFT_TO_JOB} instead (rule {@link RecoveryRules#HEALS_ITSELF}, with what the rule found as
     * evidence); the rules that stop the job (the same error again and again, no checkpoint progress) still stop it.
     *
     * @param healer  what heals the job ({@code torchft}), or null
     */
    public static Advice decide(
            RecoveryRules rules,
            String job,
            IncidentView incident,
            List<Attempt> attempts,
            String healer,
            String mode,
            Instant now) {
        if (!incident.interrupted() || incident.cause().planned()) {
            return null;
        }
        List<Attempt> chain = failureChain(attempts, incident.id());
        for (RecoveryRules.Rule rule : rules.table()) {
            List<String> evidence = new ArrayList<>();
            String node = null;
            boolean match;
            switch (rule.id()) {
                case RecoveryRules.WORKLOAD_ERROR ->
                    match = workloadError(chain, rules.workloadErrorAttempts(), evidence);
                case RecoveryRules.FAILING_NODE -> {
                    node = failingNode(chain, rules.nodeAttempts(), evidence);
                    match = node != null;
                }
                case RecoveryRules.NO_CHECKPOINT_PROGRESS ->
                    match = noProgress(chain, rules.noProgressAttempts(), evidence);
                default -> {
                    match = true;
                    evidence.add(incident.cause().wire() + ": "
                            + (incident.causeDetail() == null ? "no detail" : incident.causeDetail()));
                }
            }
            if (match && healer != null && rule.remedy() != Remedy.STOP_AND_PAGE) {
                List<String> left = new ArrayList<>();
                left.add("the job heals itself (" + healer + "): a replica failure is left to it, no pod is restarted"
                        + " or replaced");
                left.add("rule " + rule.id() + " would have advised "
                        + rule.remedy().wire());
                left.addAll(evidence);
                return advice(
                        rules,
                        job,
                        incident.id(),
                        1,
                        Remedy.LEFT_TO_JOB,
                        null,
                        RecoveryRules.HEALS_ITSELF,
                        left,
                        mode,
                        now);
            }
            if (match) {
                return advice(rules, job, incident.id(), 1, rule.remedy(), node, rule.id(), evidence, mode, now);
            }
        }
        return null;
    }

    /**
     * The next rung after {@code failed}, or null at the top of the ladder.
     *
     * @param failingNode  the node the incident points at (its failures' node, or the node whose signal stopped it),
     *                     or null; used only when the job has other nodes
     */
    public static Advice escalate(
            RecoveryRules rules, Advice failed, String failingNode, int groupNodes, String mode, Instant now) {
        boolean nodeKnown = failingNode != null && groupNodes > 1 && failed.remedy() == Remedy.RESTART_IN_PLACE;
        Remedy next = failed.remedy().next(nodeKnown);
        if (next == null) {
            return null;
        }
        List<String> evidence = new ArrayList<>();
        evidence.add("rung " + failed.rung() + " (" + failed.remedy().wire() + ") failed: " + failed.outcome());
        return advice(
                rules,
                failed.job(),
                failed.incident(),
                failed.rung() + 1,
                next,
                next == Remedy.RESTART_EXCLUDING_NODE ? failingNode : null,
                RecoveryRules.ESCALATION,
                evidence,
                mode,
                now);
    }

    static Advice advice(
            RecoveryRules rules,
            String job,
            String incident,
            int rung,
            Remedy remedy,
            String node,
            String rule,
            List<String> evidence,
            String mode,
            Instant now) {
        Instant deadline = now.plus(rules.deadline(remedy));
        String expected = switch (remedy) {
            case RESTART_IN_PLACE -> "training resumes by " + deadline;
            case RESTART_EXCLUDING_NODE ->
                "node " + node + " cordoned and out of the job's group, training resumed" + " without it, by "
                        + deadline;
            case STOP_AND_PAGE -> "the job stopped (suspended, preempted or ended) by " + deadline;
            case LEFT_TO_JOB -> "the job heals the failed replica itself; training resumes by " + deadline;
        };
        List<String> kept = evidence.size() > MAX_EVIDENCE ? evidence.subList(0, MAX_EVIDENCE) : evidence;
        return new Advice(
                job,
                incident,
                rung,
                remedy,
                node,
                rule,
                rules.version(),
                kept,
                expected,
                now,
                deadline,
                mode,
                Verdict.PENDING,
                null,
                null);
    }

    /**
     * The attempts that ended by failure in a row, up to the one {@code incident} ended, oldest first; an attempt
     * ended by notice or plan breaks the row (what came before it is not this failure's history).
     */
    static List<Attempt> failureChain(List<Attempt> attempts, String incident) {
        int end = -1;
        for (int i = 0; i < attempts.size(); i++) {
            if (incident.equals(attempts.get(i).endedBy())) {
                end = i;
            }
        }
        List<Attempt> chain = new ArrayList<>();
        for (int i = end; i >= 0; i--) {
            Attempt a = attempts.get(i);
            if (a.running() || a.endedByPlan()) {
                break;
            }
            chain.add(0, a);
        }
        return chain;
    }

    /** The failures of an attempt that carry an error (a worker killed by its runtime after a peer failed does not). */
    private static List<WorkerFailure> errors(Attempt a) {
        return a.failures().stream()
                .filter(f -> !collateral(f))
                .filter(f -> f.signature() != null)
                .toList();
    }

    static boolean workloadError(List<Attempt> chain, int n, List<String> evidence) {
        if (chain.size() < n) {
            return false;
        }
        List<Attempt> last = chain.subList(chain.size() - n, chain.size());
        String signature = null;
        Long step = null;
        for (Attempt a : last) {
            List<WorkerFailure> errors = errors(a);
            Long at = failedAt(errors, a.endStep());
            if (errors.isEmpty() || at == null) {
                return false;
            }
            Set<String> signatures = new LinkedHashSet<>();
            errors.forEach(f -> signatures.add(f.signature()));
            if (signatures.size() != 1) {
                return false;
            }
            String s = signatures.iterator().next();
            if (signature == null) {
                signature = s;
                step = at;
            } else if (!signature.equals(s) || !step.equals(at)) {
                return false;
            }
            Set<Integer> ranks = new TreeSet<>();
            errors.forEach(f -> ranks.add(f.rank()));
            evidence.add("attempt " + a.number() + " ended at step " + at + " with " + s + " on rank"
                    + (ranks.size() == 1 ? " " : "s ") + ranks);
        }
        return true;
    }

    /**
     * The step an attempt failed at: the highest its failed ranks reported (each rank's own last step, as the trainer
     * agent gives it), else the job's last step when it stopped. That one comes from sampled progress (every few
     * seconds), so two attempts that fail at the same step can stop at different steps by it.
     */
    static Long failedAt(List<WorkerFailure> errors, Long endStep) {
        Long max = null;
        for (WorkerFailure f : errors) {
            if (f.step() != null && (max == null || f.step() > max)) {
                max = f.step();
            }
        }
        return max != null ? max : endStep;
    }

    /** The node every failure of the last {@code n} attempts was on, when the job had other nodes; else null. */
    private static String failingNode(List<Attempt> chain, int n, List<String> evidence) {
        if (chain.size() < n) {
            return null;
        }
        List<Attempt> last = chain.subList(chain.size() - n, chain.size());
        String node = null;
        List<String> said = new ArrayList<>();
        for (Attempt a : last) {
            Set<String> nodes = new TreeSet<>();
            for (WorkerFailure f : a.failures()) {
                if (f.node() != null && !collateral(f)) {
                    nodes.add(f.node());
                }
            }
            if (nodes.size() != 1 || a.nodes().size() < 2) {
                return null;
            }
            String only = nodes.iterator().next();
            if (node != null && !node.equals(only)) {
                return null;
            }
            node = only;
            WorkerFailure first = a.failures().stream()
                    .filter(f -> !collateral(f))
                    .findFirst()
                    .orElse(a.failures().get(0));
            said.add("attempt " + a.number() + " failed only on " + only + " ("
                    + (first.signature() == null ? "no error reported" : first.signature()) + ") of "
                    + a.nodes().size() + " nodes");
        }
        evidence.addAll(said);
        return node;
    }

    /**
     * A worker ended by its runtime's SIGTERM or SIGKILL after a peer failed: no exception of its own (torchelastic
     * still writes a line such as {@code Signal 9 (SIGKILL) received by PID 42}, which names no error type).
     */
    private static boolean collateral(WorkerFailure f) {
        return f.errorType() == null && ("SIGTERM".equals(f.signal()) || "SIGKILL".equals(f.signal()));
    }

    private static boolean noProgress(List<Attempt> chain, int n, List<String> evidence) {
        if (chain.size() < n) {
            return false;
        }
        List<Attempt> last = chain.subList(chain.size() - n, chain.size());
        for (Attempt a : last) {
            if (a.checkpointAdvanced()) {
                return false;
            }
        }
        for (Attempt a : last) {
            evidence.add("attempt " + a.number() + " ended by " + a.endCause().wire() + " at step " + a.endStep()
                    + " without a checkpoint past "
                    + (a.checkpointStepAtStart() == null ? "its start" : "step " + a.checkpointStepAtStart()));
        }
        return true;
    }
}
