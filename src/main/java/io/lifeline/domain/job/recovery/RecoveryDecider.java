package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.WorkerFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
     * What the rules need to know of the job beyond its attempts, read from the model and the fleet when the advice is
     * decided.
     *
     * @param minNodes         the job's elastic minimum, or null when it is not elastic (it cannot shrink)
     * @param inPlaceRestarts  whether torchrun can still restart the workers where they are (false once the job's
     *                         {@code --max-restarts} are used up)
     * @param lostNodes        nodes of the fleet that are no longer usable, each with its state in words
     *                         ({@code terminated}, {@code not ready}); only the incident's own nodes matter
     * @param healer           what heals the job's replica failures itself ({@code torchft}), or null
     */
    public record JobFacts(Integer minNodes, boolean inPlaceRestarts, Map<String, String> lostNodes, String healer) {
        public JobFacts {
            lostNodes = Map.copyOf(lostNodes);
        }

        /** Nothing known beyond the attempts: not elastic, restarts in place left, no node lost. */
        public static JobFacts unknown() {
            return new JobFacts(null, true, Map.of(), null);
        }
    }

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
        return decide(rules, job, incident, attempts, JobFacts.unknown(), mode, now);
    }

    /**
     * As {@link #decide(RecoveryRules, String, IncidentView, List, String, Instant)}, knowing {@code facts}. For a job
     * that heals itself ({@link JobFacts#healer()} names what heals it: TorchFT), a rule that would restart the job in
     * place, replace its pods, shrink it or take a node out advises {@link Remedy#LEFT_TO_JOB} instead (rule
     * {@link RecoveryRules#HEALS_ITSELF}, with what the rule found as evidence); the rules that stop the job (the same
     * error again and again, no checkpoint progress) still stop it.
     */
    public static Advice decide(
            RecoveryRules rules,
            String job,
            IncidentView incident,
            List<Attempt> attempts,
            JobFacts facts,
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
                case RecoveryRules.LOST_NODE -> {
                    node = lostNode(incident, chain, facts, evidence);
                    match = node != null;
                }
                case RecoveryRules.FAILING_NODE -> {
                    node = failingNode(chain, rules.nodeAttempts(), evidence);
                    match = node != null;
                }
                case RecoveryRules.FAILING_PODS -> {
                    node = facts.inPlaceRestarts() ? null : failingNode(chain, 1, evidence);
                    match = node != null;
                    if (match) {
                        evidence.add("the job's torchrun restarts are used up: its workers cannot restart in place");
                    }
                }
                case RecoveryRules.NO_CHECKPOINT_PROGRESS ->
                    match = noProgress(chain, rules.noProgressAttempts(), evidence);
                default -> {
                    match = true;
                    evidence.add(incident.cause().wire() + ": "
                            + (incident.causeDetail() == null ? "no detail" : incident.causeDetail()));
                }
            }
            if (match && facts.healer() != null && rule.remedy() != Remedy.STOP_AND_PAGE) {
                List<String> left = new ArrayList<>();
                left.add("the job heals itself (" + facts.healer()
                        + "): a replica failure is left to it, no pod is restarted" + " or replaced");
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
        boolean nodeKnown = failingNode != null
                && groupNodes > 1
                && (failed.remedy() == Remedy.RESTART_IN_PLACE || failed.remedy() == Remedy.REPLACE_FAILED_PODS);
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
                next.aboutNode() ? failingNode : null,
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
            case REPLACE_FAILED_PODS ->
                "the job's pods on node " + node + " replaced, its group formed again at its size and training"
                        + " resumed, by " + deadline;
            case SHRINK_TO_SURVIVORS ->
                "the job rescaled to the nodes it has left, its group formed without node " + node
                        + " and training resumed, by " + deadline;
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

    /**
     * The node the incident lost, when the job can go on without it: the node that stopped training with a node
     * failure, or the one every failure of the last attempt was on, that the fleet now has terminated or not ready; the
     * job elastic and the nodes it had besides at least its minimum. Else null.
     */
    static String lostNode(IncidentView incident, List<Attempt> chain, JobFacts facts, List<String> evidence) {
        if (facts.minNodes() == null || facts.lostNodes().isEmpty()) {
            return null;
        }
        String node = incident.cause() == IncidentCause.NODE_FAILURE ? incident.originNode() : null;
        if (node == null || !facts.lostNodes().containsKey(node)) {
            List<String> said = new ArrayList<>();
            node = failingNode(chain, 1, said);
        }
        if (node == null || !facts.lostNodes().containsKey(node)) {
            return null;
        }
        List<String> before = !incident.membersAtStop().isEmpty()
                ? incident.membersAtStop()
                : chain.isEmpty() ? List.of() : chain.get(chain.size() - 1).nodes();
        List<String> survivors = survivors(before, node);
        if (survivors.isEmpty() || survivors.size() < facts.minNodes()) {
            return null;
        }
        evidence.add("node " + node + " is " + facts.lostNodes().get(node) + " ("
                + incident.cause().wire() + (incident.causeDetail() == null ? "" : ": " + incident.causeDetail())
                + ")");
        evidence.add("the job is elastic (at least " + facts.minNodes() + " node" + (facts.minNodes() == 1 ? "" : "s")
                + "); the " + survivors.size() + " left: " + survivors);
        return node;
    }

    /** The nodes of {@code group} other than {@code lost}, in order. */
    public static List<String> survivors(List<String> group, String lost) {
        return group.stream().filter(n -> !n.equals(lost)).distinct().toList();
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
