package io.lifeline.domain.job;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeSignal;
import java.util.Locale;

/** One human-readable line per event or signal, for the job timeline. */
final class Summaries {

    private Summaries() {}

    static String of(NodeSignal s) {
        StringBuilder b = new StringBuilder("node ")
                .append(s.node())
                .append(": ")
                .append(s.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '));
        if (s.noticeKind() != null) {
            b.append(" (").append(s.noticeKind().wireName()).append(')');
        }
        if (s.deadline() != null) {
            b.append(", deadline ").append(s.deadline());
        }
        if (s.detail() != null) {
            b.append(": ").append(s.detail());
        }
        return b.toString();
    }

    static String of(Event e) {
        EventData d = e.data();
        if (d instanceof JobData jd) {
            return job(jd);
        }
        if (d instanceof SchedulerData sd) {
            return scheduler(sd);
        }
        if (d instanceof TrainerData td) {
            return trainer(td);
        }
        return e.type().wireName();
    }

    private static String job(JobData d) {
        if (d instanceof JobData.Submitted s) {
            return "submitted"
                    + (s.elastic() == null
                            ? ""
                            : ", nodes " + s.elastic().minNodes() + ":"
                                    + s.elastic().maxNodes()) + ", " + s.gpusPerNode() + " GPUs per node"
                    + (s.checkpointIntervalSeconds() == null
                            ? ""
                            : ", checkpoint every " + s.checkpointIntervalSeconds() + " s");
        }
        if (d instanceof JobData.HangSuspected h) {
            return h.kind() + " hang suspected: no progress for " + Math.round(h.stalledSeconds()) + " s (threshold "
                    + Math.round(h.thresholdSeconds()) + " s)"
                    + (h.suspects().isEmpty()
                            ? ""
                            : ", suspect rank " + h.suspects().get(0).rank()
                                    + (h.suspects().get(0).node() == null
                                            ? ""
                                            : " on " + h.suspects().get(0).node()));
        }
        if (d instanceof JobData.RecoveryAdvised r) {
            return "recovery " + (r.mode().equals("dry-run") ? "(dry run) " : "") + "advises " + r.remedy()
                    + (r.node() == null ? "" : " " + r.node()) + " for " + r.incident() + " (rung " + r.rung() + ", "
                    + r.rule() + ")";
        }
        if (d instanceof JobData.RecoveryChecked r) {
            return "recovery rung " + r.rung() + " of " + r.incident() + " " + r.verdict()
                    + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (d instanceof JobData.Restarted r) {
            return "restarted by its controller: " + r.describe();
        }
        if (d instanceof JobData.Finished f) {
            return "finished: " + f.outcome().wireName() + (f.reason() == null ? "" : " (" + f.reason() + ")");
        }
        return "settings updated";
    }

    private static String scheduler(SchedulerData d) {
        if (d instanceof SchedulerData.Admitted a) {
            return "admitted" + (a.queue() == null ? "" : " from queue " + a.queue());
        }
        if (d instanceof SchedulerData.Preempted p) {
            return "preempted" + (p.preemptor() == null ? "" : " by " + p.preemptor())
                    + (p.reason() == null ? "" : ": " + p.reason());
        }
        if (d instanceof SchedulerData.Evicted v) {
            return "evicted" + (v.reason() == null ? "" : ": " + v.reason());
        }
        if (d instanceof SchedulerData.Requeued r) {
            return "requeued" + (r.reason() == null ? "" : ": " + r.reason());
        }
        SchedulerData.PodEvicted p = (SchedulerData.PodEvicted) d;
        return "pod " + p.pod() + " evicted from " + p.node() + (p.reason() == null ? "" : ": " + p.reason());
    }

    private static String trainer(TrainerData d) {
        if (d instanceof TrainerData.Rendezvous r) {
            return "rendezvous round " + r.round() + ": world size " + r.worldSize() + " on "
                    + r.participants().size() + " nodes";
        }
        if (d instanceof TrainerData.WorkerFailed w) {
            return "worker rank " + w.rank() + (w.node() == null ? "" : " on " + w.node()) + " failed"
                    + (w.exitCode() == null ? "" : ", exit code " + w.exitCode())
                    + (w.error() == null ? "" : ": " + w.error());
        }
        if (d instanceof TrainerData.Restarted r) {
            return "workers restarted (" + r.restartCount() + ")" + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (d instanceof TrainerData.CheckpointStarted c) {
            return "checkpoint " + c.checkpointId() + " started at step " + c.step() + (c.async() ? " (async)" : "");
        }
        if (d instanceof TrainerData.CheckpointCompleted c) {
            return "checkpoint " + c.checkpointId() + " completed at step " + c.step() + ", blocked "
                    + c.blockingSeconds() + " s";
        }
        if (d instanceof TrainerData.CheckpointFailed c) {
            return "checkpoint " + c.checkpointId() + " failed: " + c.error();
        }
        if (d instanceof TrainerData.CheckpointVerified c) {
            return "checkpoint " + c.checkpointId() + (c.ok() ? " verified" : " CORRUPT");
        }
        if (d instanceof TrainerData.Restored r) {
            return "restored from "
                    + (r.checkpointId() == null || r.checkpointId().isEmpty() ? "scratch" : r.checkpointId())
                    + " at step " + r.step();
        }
        if (d instanceof TrainerData.Stacks s) {
            return "stacks of rank " + s.rank() + (s.node() == null ? "" : " on " + s.node()) + " (" + s.via() + ", "
                    + s.threads().size() + " threads) for " + s.requestId();
        }
        if (d instanceof TrainerData.CommandAck a) {
            return "command " + a.command() + " " + a.status().wireName()
                    + (a.message() == null ? "" : ": " + a.message());
        }
        if (d instanceof TrainerData.StatusReport r) {
            return "trainer status " + (r.percent() == null ? "" : r.percent() + " % ")
                    + (r.step() == null ? "" : "at step " + r.step() + " ") + "reported at " + r.reportedAt();
        }
        TrainerData.Progress p = (TrainerData.Progress) d;
        return "progress at step " + p.step();
    }
}
