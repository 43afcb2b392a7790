package io.lifeline.domain.alert;

import io.lifeline.domain.alert.AlertSnapshot.FailedAction;
import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import io.lifeline.domain.alert.AlertSnapshot.NodeFacts;
import io.lifeline.domain.alert.AlertSnapshot.NoticeFacts;
import io.lifeline.domain.alert.AlertSnapshot.XidFacts;
import io.lifeline.domain.job.recovery.Advice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds, for each rule, the label sets whose condition holds in a snapshot. One small method per rule; each reads
 * the rule's settings for the namespace concerned, so a namespace can change or switch off any rule.
 */
final class RuleConditions {

    /** The conditions found, and the rules that could be evaluated (their inputs were present). */
    record Found(List<Condition> conditions, Set<AlertRule> evaluated) {}

    private final AlertRules rules;
    private final Instant now;
    private final List<Condition> out = new ArrayList<>();
    private final Set<AlertRule> evaluated = EnumSet.noneOf(AlertRule.class);

    private RuleConditions(AlertRules rules, Instant now) {
        this.rules = rules;
        this.now = now;
    }

    static Found find(AlertSnapshot s, AlertRules rules, Instant now, DeadLetterHistory deadLetters) {
        RuleConditions c = new RuleConditions(rules, now);
        if (s.jobs() != null) {
            c.evaluated.add(AlertRule.CHECKPOINT_STALE);
            c.evaluated.add(AlertRule.RESTART_LOOP);
            c.evaluated.add(AlertRule.COORDINATOR_ON_SPOT);
            c.evaluated.add(AlertRule.CHECKPOINT_NODE_LOCAL);
            c.evaluated.add(AlertRule.STRAGGLER);
            c.evaluated.add(AlertRule.JOB_HUNG);
            c.evaluated.add(AlertRule.JOB_RECOVERY_STOPPED);
            c.evaluated.add(AlertRule.CHECKPOINT_NO_SPACE);
            for (JobFacts j : s.jobs()) {
                c.checkpointStale(j);
                c.checkpointNoSpace(j);
                c.checkpointNodeLocal(j);
                c.restartLoop(j);
                c.coordinatorOnSpot(j);
                c.straggler(j);
                c.jobHung(j);
                c.recoveryStopped(j);
            }
        }
        if (s.notices() != null) {
            c.evaluated.add(AlertRule.NOTICE_UNHANDLED);
            s.notices().forEach(c::noticeUnhandled);
        }
        if (s.xids() != null) {
            c.evaluated.add(AlertRule.FATAL_XID);
            s.xids().forEach(c::fatalXid);
        }
        if (s.nodes() != null) {
            c.evaluated.add(AlertRule.LEMON_NODE);
            s.nodes().forEach(c::lemonNode);
        }
        if (s.failedActions() != null) {
            c.evaluated.add(AlertRule.ACTION_FAILED);
            s.failedActions().forEach(c::actionFailed);
        }
        if (s.ingest() != null) {
            c.evaluated.add(AlertRule.INGEST_LAG);
            c.evaluated.add(AlertRule.DEAD_LETTER_SPIKE);
            deadLetters.record(now, s.ingest().deadLetteredTotal());
            c.ingest(s.ingest().lag(), deadLetters);
        }
        if (s.brake() != null) {
            c.evaluated.add(AlertRule.AUTOMATION_BRAKE);
            c.automationBrake(s.brake());
        }
        if (s.objectives() != null) {
            c.evaluated.add(AlertRule.OBJECTIVE_FAST_BURN);
            c.evaluated.add(AlertRule.OBJECTIVE_SLOW_BURN);
            s.objectives().forEach(c::objectiveBurn);
        }
        if (s.storage() != null) {
            c.evaluated.add(AlertRule.STORAGE_FILLING);
            s.storage().forEach(c::storageFilling);
        }
        return new Found(List.copyOf(c.out), c.evaluated);
    }

    private void storageFilling(AlertSnapshot.StorageFacts t) {
        String ns = t.namespace();
        RuleSettings st = rules.settings(AlertRule.STORAGE_FILLING, ns);
        if (!st.enabled() || t.freeBytes() == null) {
            return;
        }
        boolean soon = t.secondsUntilFull() != null
                && t.secondsUntilFull() * 1000 < t.alertBefore().toMillis();
        double room = st.threshold() * t.largestRecentBytes();
        boolean tight = t.largestRecentBytes() > 0 && t.freeBytes() < room;
        if (!soon && !tight) {
            return;
        }
        String until = t.secondsUntilFull() == null
                ? "no growth measured"
                : "full in " + human(Math.round(t.secondsUntilFull() * 1000));
        add(
                AlertRule.STORAGE_FILLING,
                ns,
                labels("target", t.target(), "namespace", ns),
                "Checkpoint storage " + t.target() + " is filling (" + until + ")",
                "Checkpoint storage " + t.target() + " has " + gib(t.freeBytes()) + " free"
                        + (t.capacityBytes() == null ? "" : " of " + gib(t.capacityBytes()))
                        + "; its jobs (" + String.join(", ", t.namespaces()) + ") add " + gib(t.netBytesPerHour())
                        + " per hour net of retention: " + until
                        + (soon ? " (alert before " + human(t.alertBefore().toMillis()) + ")" : "")
                        + (tight
                                ? "; the largest recent checkpoint is " + gib(t.largestRecentBytes())
                                        + ", and less than " + fmt(st.threshold()) + " times that is free"
                                : "")
                        + ". Free space, rotate old checkpoints, or move the jobs: GET /api/v1/storage or"
                        + " lifelinectl storage.",
                t.secondsUntilFull() == null ? 0 : t.secondsUntilFull() / 3600.0,
                st);
    }

    private static String gib(double bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    private void objectiveBurn(AlertSnapshot.ObjectiveFacts o) {
        burn(o, AlertRule.OBJECTIVE_FAST_BURN, o.fastBurn(), "1h", "5m", "fast");
        burn(o, AlertRule.OBJECTIVE_SLOW_BURN, o.slowBurn(), "6h", "30m", "slow");
    }

    private void burn(
            AlertSnapshot.ObjectiveFacts o, AlertRule rule, boolean holds, String longW, String shortW, String pace) {
        RuleSettings st = rules.settings(rule, o.namespace());
        if (!st.enabled() || !holds) {
            return;
        }
        Double burnLong = o.burnRates().get(longW);
        Double burnShort = o.burnRates().get(shortW);
        add(
                rule,
                o.namespace(),
                labels("objective", o.name(), "namespace", o.namespace()),
                "Goodput objective " + o.name() + " burns its budget " + pace + " (x" + fmt(burnLong) + " over " + longW
                        + ")",
                "Objective " + o.name() + " (" + o.scope() + ", ETTR target " + fmt(o.ettrTarget() * 100) + " %) burns"
                        + " its error budget at x" + fmt(burnLong) + " over the last " + longW + " and x"
                        + fmt(burnShort) + " over the last " + shortW + "; ETTR over its window "
                        + (o.ettr() == null ? "unknown" : fmt(o.ettr() * 100) + " %") + ", budget left "
                        + (o.remaining() == null ? "unknown" : fmt(o.remaining() * 100) + " %")
                        + ". What spent it: the Objectives page, GET /api/v1/objectives/" + o.name()
                        + " or lifelinectl objectives " + o.name() + ".",
                burnLong == null ? 0 : burnLong,
                st);
    }

    private void automationBrake(AlertSnapshot.BrakeFacts b) {
        RuleSettings st = rules.settings(AlertRule.AUTOMATION_BRAKE, null);
        if (!st.enabled() || !b.engaged()) {
            return;
        }
        add(
                AlertRule.AUTOMATION_BRAKE,
                null,
                labels("policy", b.policy(), "pool", b.pool()),
                "The automation brake is engaged: node drains by policies are held",
                "Since " + b.since() + " the policies may take no node out of service: " + b.policy() + "'s drain of "
                        + b.node() + " would have gone past the brake (" + b.reason() + "). " + b.held()
                        + " decision(s) held so far. Find out why so many nodes were to be taken at once (forged or"
                        + " replayed notices or XIDs, a real wave of reclaims), then reset the brake: POST"
                        + " /api/v1/policies/brake/reset, lifelinectl policies brake reset, or the Actions page.",
                b.held(),
                st);
    }

    private void checkpointStale(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.CHECKPOINT_STALE, j.namespace());
        if (!st.enabled() || !j.active() || j.freshnessAgeMillis() == null || j.freshnessObjectiveMillis() <= 0) {
            return;
        }
        double ratio = j.freshnessAgeMillis() / (double) j.freshnessObjectiveMillis();
        if (ratio > st.threshold()) {
            add(
                    AlertRule.CHECKPOINT_STALE,
                    j.namespace(),
                    labels("namespace", j.namespace(), "job", j.job()),
                    "Checkpoint of " + j.job() + " is older than its freshness objective",
                    "The newest good checkpoint of " + j.job() + " is " + human(j.freshnessAgeMillis()) + " old; the "
                            + "objective is " + human(j.freshnessObjectiveMillis())
                            + ". An interruption now loses that work.",
                    ratio,
                    st);
        }
    }

    private void checkpointNodeLocal(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.CHECKPOINT_NODE_LOCAL, j.namespace());
        if (!st.enabled() || !j.active() || !j.nodeLocalCheckpoint()) {
            return;
        }
        add(
                AlertRule.CHECKPOINT_NODE_LOCAL,
                j.namespace(),
                labels("namespace", j.namespace(), "job", j.job()),
                "Newest checkpoint of " + j.job() + " is on a node's local disk",
                "The newest good checkpoint of " + j.job()
                        + " is node-local: it is lost with the node that holds it, so"
                        + " freshness counts an older checkpoint, or none. Save to object storage or a shared file system"
                        + " and declare it (CheckpointManager(dir, durable=True), or lifeline.checkpoints.shared-paths),"
                        + " or keep a copy on every node (durable=False).",
                1,
                st);
    }

    private void checkpointNoSpace(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.CHECKPOINT_NO_SPACE, j.namespace());
        io.lifeline.domain.job.checkpoint.NoSpaceRefusal r = j.noSpace();
        if (!st.enabled() || r == null || r.at().isBefore(now.minus(st.window()))) {
            return;
        }
        add(
                AlertRule.CHECKPOINT_NO_SPACE,
                j.namespace(),
                labels("namespace", j.namespace(), "job", j.job()),
                "Checkpoint of " + j.job() + " refused: no space",
                "The save of " + r.checkpointId() + " (step " + r.step() + ") was refused at " + r.at()
                        + " because the checkpoint directory's file system is too full: " + r.detail()
                        + ". No checkpoint completed since; the previous ones are intact. Free space (or move the"
                        + " checkpoint directory), and mind the retention (keep=) of the trainers' checkpoint helper.",
                1,
                st);
    }

    private void restartLoop(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.RESTART_LOOP, j.namespace());
        if (!st.enabled()) {
            return;
        }
        Instant from = now.minus(st.window());
        long n = j.restartTimes().stream()
                .filter(t -> !t.isBefore(from) && !t.isAfter(now))
                .count();
        if (n >= st.threshold() && n > 0) {
            add(
                    AlertRule.RESTART_LOOP,
                    j.namespace(),
                    labels("namespace", j.namespace(), "job", j.job()),
                    j.job() + " restarted " + n + " times in "
                            + human(st.window().toMillis()),
                    j.job() + " stopped and restarted " + n + " times within "
                            + human(st.window().toMillis()) + " (threshold " + fmt(st.threshold())
                            + "): it may be crash-looping.",
                    n,
                    st);
        }
    }

    private void coordinatorOnSpot(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.COORDINATOR_ON_SPOT, j.namespace());
        if (!st.enabled() || !j.active() || !j.coordinatorOnSpot()) {
            return;
        }
        add(
                AlertRule.COORDINATOR_ON_SPOT,
                j.namespace(),
                labels("namespace", j.namespace(), "job", j.job()),
                "Rank 0 or the rendezvous endpoint of " + j.job() + " runs on spot capacity",
                j.job() + ": "
                        + (j.placementWarning() == null
                                ? "a coordinating role runs on spot capacity while "
                                        + "on-demand capacity exists in its pools."
                                : j.placementWarning()),
                1,
                st);
    }

    private void straggler(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.STRAGGLER, j.namespace());
        if (!st.enabled() || !j.active() || j.stragglers() == null) {
            return;
        }
        java.util.Set<String> nodes = new java.util.HashSet<>();
        for (io.lifeline.domain.job.straggler.Straggler s : j.stragglers().stragglers()) {
            String node = s.node() == null ? "rank-" + s.rank() : s.node();
            if (s.slowdown() < st.threshold() || !nodes.add(node)) {
                continue; // slowest first: one alert per node, for its slowest rank
            }
            add(
                    AlertRule.STRAGGLER,
                    j.namespace(),
                    labels("namespace", j.namespace(), "job", j.job(), "node", node),
                    "Rank " + s.rank() + " of " + j.job() + " on " + node + " holds the job back",
                    String.format(
                            Locale.ROOT,
                            "Rank %d (GPU %s) of %s on %s takes %.3f s per step, %.2fx the median of"
                                    + " its peers (%.3f s), since %s; the whole job runs at its pace (%.2f GPU-hours lost so far)."
                                    + " Drain %s to shrink the job to the nodes that keep pace.",
                            s.rank(),
                            s.gpuIndex() == null ? "?" : s.gpuIndex(),
                            j.job(),
                            node,
                            s.stepSeconds(),
                            s.slowdown(),
                            s.peerMedianSeconds(),
                            s.slowSince(),
                            j.stragglers().gpuHoursLost(),
                            node),
                    s.slowdown(),
                    st);
        }
    }

    private void jobHung(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.JOB_HUNG, j.namespace());
        AlertSnapshot.HangFacts h = j.hang();
        if (!st.enabled() || h == null) {
            return;
        }
        List<String> suspects = h.suspectNodes();
        String where = suspects.isEmpty()
                ? ""
                : ": suspect" + (suspects.size() == 1 ? "" : "s") + " on " + String.join(", ", suspects);
        add(
                AlertRule.JOB_HUNG,
                j.namespace(),
                labels("namespace", j.namespace(), "job", j.job(), "incident", h.incident()),
                j.job() + " is hung" + where,
                j.job() + " has made no progress for " + human(h.hangMillis()) + " while its workers are alive"
                        + (h.detail() == null ? "" : " (" + h.detail() + ")") + "; incident " + h.incident()
                        + ", detected " + h.stoppedAt()
                        + ". The job page and lifelinectl stacks " + j.job() + " show every rank's stacks, the odd"
                        + " one out first; the hang-recovery policy, when on, restarts the workers from the newest"
                        + " checkpoint.",
                h.hangMillis() / 1000.0,
                st);
    }

    private void recoveryStopped(JobFacts j) {
        RuleSettings st = rules.settings(AlertRule.JOB_RECOVERY_STOPPED, j.namespace());
        Advice a = j.stopAdvice();
        if (!st.enabled() || a == null) {
            return;
        }
        add(
                AlertRule.JOB_RECOVERY_STOPPED,
                j.namespace(),
                labels("namespace", j.namespace(), "job", j.job(), "incident", a.incident()),
                j.job() + " was stopped by recovery (" + a.rule() + ")",
                "Recovery advice " + a.id() + " (" + a.rule() + ", rules version " + a.rulesVersion() + "): "
                        + String.join("; ", a.evidence())
                        + ". Restarting will not help; lifelinectl recovery " + j.job() + " and lifelinectl attempts "
                        + j.job() + " show the attempts and their errors.",
                a.rung(),
                st);
    }

    private void noticeUnhandled(NoticeFacts n) {
        RuleSettings st = rules.settings(AlertRule.NOTICE_UNHANDLED, n.namespace());
        if (!st.enabled() || n.noticeAt() == null) {
            return;
        }
        Instant end = n.stoppedAt() != null ? n.stoppedAt() : n.deadline();
        if (end == null || end.isAfter(now) || end.isBefore(now.minus(st.window()))) {
            return;
        }
        for (Instant c : n.checkpointsCompleted()) {
            if (!c.isBefore(n.noticeAt()) && !c.isAfter(end)) {
                return;
            }
        }
        String node = n.node() == null ? "" : n.node();
        add(
                AlertRule.NOTICE_UNHANDLED,
                n.namespace(),
                labels("namespace", n.namespace(), "job", n.job(), "node", node, "incident", n.incident()),
                "Interruption notice on " + (node.isEmpty() ? "a node" : node) + " was not met by a checkpoint of "
                        + n.job(),
                "A notice reached " + (node.isEmpty() ? "a node" : node) + " at " + n.noticeAt()
                        + " and no checkpoint of "
                        + n.job() + " completed before "
                        + (n.stoppedAt() != null ? "it went away at " : "the deadline ")
                        + end + ": the work since the previous checkpoint was lost.",
                Duration.between(n.noticeAt(), end).toMillis() / 1000.0,
                st);
    }

    private void fatalXid(XidFacts x) {
        RuleSettings st = rules.settings(AlertRule.FATAL_XID, x.namespace());
        if (!st.enabled() || !x.fatal() || x.time() == null || x.time().isBefore(now.minus(st.window()))) {
            return;
        }
        add(
                AlertRule.FATAL_XID,
                x.namespace(),
                labels(
                        "namespace",
                        x.namespace(),
                        "node",
                        x.node(),
                        "gpu",
                        Integer.toString(x.gpuIndex()),
                        "xid",
                        Integer.toString(x.xid())),
                "Fatal XID " + x.xid() + " on " + x.node() + " GPU " + x.gpuIndex(),
                "GPU " + x.gpuIndex() + (x.gpuUuid() == null ? "" : " (" + x.gpuUuid() + ")") + " of " + x.node()
                        + " reported XID " + x.xid() + (x.description() == null ? "" : " (" + x.description() + ")")
                        + " at " + x.time() + "; the XID policy rates it fatal: drain the node.",
                x.xid(),
                st);
    }

    private void lemonNode(NodeFacts n) {
        RuleSettings st = rules.settings(AlertRule.LEMON_NODE, null);
        if (!st.enabled() || n.lemonScore() < st.threshold() || n.lemonScore() <= 0) {
            return;
        }
        add(
                AlertRule.LEMON_NODE,
                null,
                labels("node", n.node(), "pool", n.pool()),
                n.node() + " was interrupted " + n.lemonScore() + " times lately",
                n.node() + " was interrupted " + n.lemonScore() + " times within "
                        + human(n.lemonWindow() == null ? 0 : n.lemonWindow().toMillis()) + " (threshold "
                        + fmt(st.threshold()) + "): consider taking it out of the pool.",
                n.lemonScore(),
                st);
    }

    private void actionFailed(FailedAction a) {
        String ns = a.namespace();
        RuleSettings st = rules.settings(AlertRule.ACTION_FAILED, ns);
        if (!st.enabled()
                || a.time() == null
                || a.time().isBefore(now.minus(st.window()))
                || a.time().isAfter(now)) {
            return;
        }
        add(
                AlertRule.ACTION_FAILED,
                ns,
                labels("namespace", ns, "action", a.kind(), "target", a.target(), "action_id", a.id()),
                "Action " + a.kind() + " on " + a.target() + " failed",
                "Action " + a.id() + " (" + a.kind() + " on " + a.target() + ") failed at " + a.time()
                        + (a.reason() == null ? "" : ": " + a.reason()),
                1,
                st);
    }

    private void ingest(long lag, DeadLetterHistory deadLetters) {
        RuleSettings lagSt = rules.settings(AlertRule.INGEST_LAG, null);
        if (lagSt.enabled() && lag >= lagSt.threshold()) {
            add(
                    AlertRule.INGEST_LAG,
                    null,
                    labels(),
                    "Ingest is " + lag + " behind",
                    lag + " event batches wait to be applied to the model (threshold " + fmt(lagSt.threshold())
                            + "): views and alerts lag behind reality.",
                    lag,
                    lagSt);
        }
        RuleSettings dlSt = rules.settings(AlertRule.DEAD_LETTER_SPIKE, null);
        long spike = deadLetters.increaseSince(now.minus(dlSt.window()));
        if (dlSt.enabled() && spike >= dlSt.threshold() && spike > 0) {
            add(
                    AlertRule.DEAD_LETTER_SPIKE,
                    null,
                    labels(),
                    spike + " events dead-lettered in " + human(dlSt.window().toMillis()),
                    spike + " events were refused as invalid (dead-lettered or rejected) within "
                            + human(dlSt.window().toMillis()) + " (threshold " + fmt(dlSt.threshold())
                            + "): a producer may send a broken format.",
                    spike,
                    dlSt);
        }
    }

    private void add(
            AlertRule rule,
            String namespace,
            Map<String, String> labels,
            String summary,
            String description,
            double value,
            RuleSettings st) {
        Map<String, String> ann = new LinkedHashMap<>();
        ann.put("summary", summary);
        ann.put("description", description);
        out.add(new Condition(rule, namespace, labels, ann, value, st));
    }

    /** Labels from name/value pairs; null or empty values are left out. */
    private static Map<String, String> labels(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (pairs[i + 1] != null && !pairs[i + 1].isEmpty()) {
                m.put(pairs[i], pairs[i + 1]);
            }
        }
        return m;
    }

    static String human(long millis) {
        long s = Math.max(0, millis / 1000);
        if (s < 120) {
            return s + "s";
        }
        if (s < 7200) {
            return (s / 60) + "m";
        }
        if (s < 172_800) {
            return (s / 3600) + "h" + (s % 3600 / 60 == 0 ? "" : (s % 3600 / 60) + "m");
        }
        return (s / 86_400) + "d";
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
