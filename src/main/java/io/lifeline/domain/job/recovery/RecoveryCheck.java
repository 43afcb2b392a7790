package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Checks pending advice against fresh observations: reached (verified), not reached and still time (pending), or not
 * reached by its deadline, or contradicted (failed, with what was seen). Pure.
 */
public final class RecoveryCheck {

    private RecoveryCheck() {}

    /**
     * What the check sees of the job now.
     *
     * @param state             the job's state, in lower case ({@code running}, {@code suspended}...)
     * @param running           whether it trains
     * @param ended             whether it ended (succeeded, failed, cancelled)
     * @param waiting           whether it waits off its nodes (preempted, suspended)
     * @param incidentOutcome   how the advice's incident ended (OPEN while open), or null when it fell away
     * @param incidentClosedAt  when it closed, or null
     * @param lastProgressAt    the job's newest progress, or null
     * @param lastStep          its step, or null
     * @param nodes             the nodes in the job's group now
     * @param roundAt           when that group formed, or null
     * @param nodeCordoned      whether the advice's node is cordoned (null when it has none, or the node is unknown)
     * @param nodeLeftAt        when the advice's node was first out of the job's group after the advice was decided
     *                          (the first round without it), null when it has not been out (or the advice has none)
     * @param membersAtStop     the nodes in the job's group when the advice's incident stopped training (empty when
     *                          not known)
     */
    public record Observation(
            String state,
            boolean running,
            boolean ended,
            boolean waiting,
            IncidentOutcome incidentOutcome,
            Instant incidentClosedAt,
            Instant lastProgressAt,
            Long lastStep,
            List<String> nodes,
            Instant roundAt,
            Boolean nodeCordoned,
            Instant nodeLeftAt,
            List<String> membersAtStop) {
        public Observation {
            nodes = List.copyOf(nodes);
            membersAtStop = List.copyOf(membersAtStop);
        }
    }

    /** A verdict and what it rests on. */
    public record Result(Verdict verdict, String reason) {
        static Result pending() {
            return new Result(Verdict.PENDING, null);
        }
    }

    public static Result check(Advice a, Observation o, RecoveryRules rules, Instant now) {
        if (!a.pending()) {
            return new Result(a.verdict(), a.outcome());
        }
        boolean late = now.isAfter(a.deadline());
        String within = " within " + human(Duration.between(a.decidedAt(), a.deadline()));
        return switch (a.remedy()) {
            case RESTART_IN_PLACE, LEFT_TO_JOB -> {
                if (o.incidentOutcome() == IncidentOutcome.RECOVERED) {
                    yield new Result(Verdict.VERIFIED, "training resumed at " + o.incidentClosedAt() + stepOf(o));
                }
                if (o.ended() || o.incidentOutcome() == IncidentOutcome.JOB_ENDED) {
                    yield new Result(Verdict.FAILED, "the job ended (" + o.state() + ")");
                }
                yield late ? new Result(Verdict.FAILED, "training did not resume" + within) : Result.pending();
            }
            case RESTART_EXCLUDING_NODE -> {
                String node = a.node();
                boolean inGroup = o.nodes().contains(node);
                // Again, not still: the round the workers' own restart forms right after the failure can still hold
                // the node, before the drain took it out.
                if (inGroup
                        && o.nodeLeftAt() != null
                        && o.roundAt() != null
                        && o.roundAt().isAfter(o.nodeLeftAt())) {
                    yield new Result(
                            Verdict.FAILED,
                            "node " + node + " is in the job's group again (out of it at " + o.nodeLeftAt()
                                    + ", group formed at " + o.roundAt() + ")");
                }
                if (o.ended()) {
                    yield new Result(Verdict.FAILED, "the job ended (" + o.state() + ")");
                }
                boolean cordoned = Boolean.TRUE.equals(o.nodeCordoned());
                boolean resumed =
                        o.lastProgressAt() != null && o.lastProgressAt().isAfter(a.decidedAt()) && o.running();
                // Held since the group without the node formed: a state seen for a moment is not reached.
                boolean held = o.roundAt() != null && !now.isBefore(o.roundAt().plus(rules.hold()));
                if (!inGroup && cordoned && resumed && held) {
                    yield new Result(
                            Verdict.VERIFIED,
                            "node " + node + " cordoned and out of the group of "
                                    + o.nodes().size() + " node" + (o.nodes().size() == 1 ? "" : "s")
                                    + "; training resumed" + stepOf(o));
                }
                if (!late) {
                    yield Result.pending();
                }
                List<String> missing = new java.util.ArrayList<>();
                if (!cordoned) {
                    missing.add("node " + node + " not cordoned");
                }
                if (inGroup) {
                    missing.add("node " + node + " still in the job's group");
                }
                if (!resumed) {
                    missing.add("training did not resume");
                }
                yield new Result(Verdict.FAILED, String.join("; ", missing) + within);
            }
            case REPLACE_FAILED_PODS -> replaced(a, o, rules, now, late, within);
            case SHRINK_TO_SURVIVORS -> shrunk(a, o, rules, now, late, within);
            case STOP_AND_PAGE -> {
                if (o.ended() || o.waiting()) {
                    yield new Result(Verdict.VERIFIED, "the job stopped (" + o.state() + ")");
                }
                yield late ? new Result(Verdict.FAILED, "the job is still " + o.state() + within) : Result.pending();
            }
        };
    }

    /**
     * The job's pods on the advice's node replaced: a group formed after the advice (the recreated pods' workers
     * joined it) at least as large as the one the failure stopped, training resumed since, and that held.
     */
    private static Result replaced(
            Advice a, Observation o, RecoveryRules rules, Instant now, boolean late, String within) {
        if (o.ended()) {
            return new Result(Verdict.FAILED, "the job ended (" + o.state() + ")");
        }
        int size = o.membersAtStop().size();
        boolean formed = o.roundAt() != null && o.roundAt().isAfter(a.decidedAt());
        boolean full = o.nodes().size() >= size && !o.nodes().isEmpty();
        boolean resumed = resumedSince(a, o);
        boolean held = formed && !now.isBefore(o.roundAt().plus(rules.hold()));
        if (formed && full && resumed && held) {
            return new Result(
                    Verdict.VERIFIED,
                    "the pods on node " + a.node() + " replaced: the group formed again at "
                            + nodes(o.nodes().size()) + "; training resumed" + stepOf(o));
        }
        if (!late) {
            return Result.pending();
        }
        List<String> missing = new java.util.ArrayList<>();
        if (!formed) {
            missing.add("no group formed after the pods on node " + a.node() + " were to be replaced");
        } else if (!full) {
            missing.add("the group formed at " + nodes(o.nodes().size()) + ", not " + size);
        }
        if (!resumed) {
            missing.add("training did not resume");
        }
        return new Result(Verdict.FAILED, String.join("; ", missing) + within);
    }

    /**
     * The job rescaled to the nodes it had left: a group formed after the advice without the lost node, as large as
     * its survivors (or larger, when a replacement joined after all), training resumed since, and that held.
     */
    private static Result shrunk(
            Advice a, Observation o, RecoveryRules rules, Instant now, boolean late, String within) {
        if (o.ended()) {
            return new Result(Verdict.FAILED, "the job ended (" + o.state() + ")");
        }
        String node = a.node();
        int survivors = RecoveryDecider.survivors(o.membersAtStop(), node).size();
        boolean inGroup = o.nodes().contains(node);
        boolean formed = o.roundAt() != null && o.roundAt().isAfter(a.decidedAt());
        boolean sized = !o.nodes().isEmpty() && o.nodes().size() >= survivors;
        boolean resumed = resumedSince(a, o);
        boolean held = formed && !now.isBefore(o.roundAt().plus(rules.hold()));
        if (!inGroup && formed && sized && resumed && held) {
            return new Result(
                    Verdict.VERIFIED,
                    "the group formed without node " + node + " at "
                            + nodes(o.nodes().size()) + "; training resumed" + stepOf(o));
        }
        if (!late) {
            return Result.pending();
        }
        List<String> missing = new java.util.ArrayList<>();
        if (inGroup) {
            missing.add("node " + node + " still in the job's group");
        }
        if (!formed) {
            missing.add("no group formed after the rescale");
        } else if (!sized) {
            missing.add("the group formed at " + nodes(o.nodes().size()) + ", fewer than the " + survivors + " left");
        }
        if (!resumed) {
            missing.add("training did not resume");
        }
        return new Result(Verdict.FAILED, String.join("; ", missing) + within);
    }

    private static boolean resumedSince(Advice a, Observation o) {
        return o.lastProgressAt() != null && o.lastProgressAt().isAfter(a.decidedAt()) && o.running();
    }

    private static String nodes(int n) {
        return n + " node" + (n == 1 ? "" : "s");
    }

    private static String stepOf(Observation o) {
        return o.lastStep() == null ? "" : " (step " + o.lastStep() + ")";
    }

    static String human(Duration d) {
        long s = d.getSeconds();
        return s % 60 == 0 && s >= 60 ? s / 60 + " min" : s + " s";
    }
}
