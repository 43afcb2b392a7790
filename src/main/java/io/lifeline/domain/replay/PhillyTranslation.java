package io.lifeline.domain.replay;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Philly job as catalogue events. The first attempt is an admission, each later one an agent restart; every
 * attempt is a rendezvous on its machines and a first progress at its start. An attempt followed by another ended
 * in a worker failure on its first machine (the trace records no cause, so the model calls it a software error);
 * the last attempt ends the job with its status. Philly records no checkpoints: every rescheduled attempt's run
 * time is lost work.
 */
public final class PhillyTranslation {

    /** Subjects are {@code philly/<application id>}. */
    static final String NAMESPACE = "philly";

    private PhillyTranslation() {}

    /**
     * A Philly job with the line of the trace its record starts on.
     *
     * @param line  the line
     * @param job   the job
     */
    public record Numbered(int line, PhillyJob job) {}

    /**
     * The trace of these jobs: each is checked (attempts in order, none ending before it starts, GPUs held) and
     * translated; a job that fails the check is refused with its line, the others kept.
     *
     * @param format    the format they were read from
     * @param jobs      the jobs read
     * @param rejected  what the reader already refused
     */
    public static Trace trace(TraceFormat format, List<Numbered> jobs, List<TraceRejection> rejected) {
        TraceEvents out = new TraceEvents(format);
        List<TraceRejection> refused = new ArrayList<>(rejected);
        for (Numbered n : jobs) {
            try {
                check(n.job());
            } catch (IllegalArgumentException e) {
                refused.add(new TraceRejection(n.line(), "job " + n.job().jobId() + ": " + e.getMessage()));
                continue;
            }
            translate(n.job(), out);
        }
        refused.sort(java.util.Comparator.comparingInt(TraceRejection::line));
        return new Trace(format, out.events(), refused);
    }

    static String subject(PhillyJob job) {
        return NAMESPACE + "/" + job.jobId();
    }

    static void translate(PhillyJob job, TraceEvents out) {
        String name = subject(job);
        int gpus = job.attempts().isEmpty() ? 0 : job.attempts().get(0).gpus();
        int machines = job.attempts().isEmpty()
                ? 1
                : Math.max(1, job.attempts().get(0).machines().size());
        int perNode = Math.max(1, gpus / machines);
        out.add(
                name,
                job.submitted(),
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(
                        NAMESPACE,
                        job.user(),
                        null,
                        new ElasticPolicy(machines, machines, perNode, 10),
                        perNode,
                        null));
        List<PhillyJob.Attempt> attempts = job.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            PhillyJob.Attempt a = attempts.get(i);
            String first = a.machines().isEmpty() ? null : a.machines().get(0).ip();
            if (i == 0) {
                out.add(name, a.start(), EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted(name, job.vc()));
            } else {
                out.add(
                        name,
                        a.start(),
                        EventType.TRAINER_RESTARTED,
                        new TrainerData.Restarted(null, i, "rescheduled"));
            }
            out.add(
                    name,
                    a.start(),
                    EventType.TRAINER_RENDEZVOUS,
                    new TrainerData.Rendezvous(null, i + 1, a.gpus(), participants(name, i, a)));
            out.add(name, a.start(), EventType.TRAINER_PROGRESS, new TrainerData.Progress(0, null, null));
            if (a.end() == null) {
                continue;
            }
            if (i < attempts.size() - 1) {
                out.add(
                        name,
                        a.end(),
                        EventType.TRAINER_WORKER_FAILED,
                        new TrainerData.WorkerFailed(
                                null,
                                0,
                                first,
                                null,
                                "attempt ended (cause " + (a.cause() == null ? "not recorded" : a.cause()) + ")"));
            } else if (isFinal(job.status())) {
                out.add(
                        name,
                        a.end(),
                        EventType.JOB_FINISHED,
                        new JobData.Finished(outcome(job.status()), job.status()));
            }
        }
    }

    private static List<TrainerData.Participant> participants(String name, int index, PhillyJob.Attempt a) {
        List<TrainerData.Participant> ps = new ArrayList<>();
        int rank = 0;
        for (int m = 0; m < a.machines().size(); m++) {
            PhillyJob.Machine machine = a.machines().get(m);
            String node = machine.ip() != null ? machine.ip() : name + "-a" + index + "-m" + m;
            ps.add(new TrainerData.Participant(node, rank, machine.gpus()));
            rank += machine.gpus();
        }
        return ps;
    }

    /** Philly's final status as an outcome: Pass succeeded, Killed was cancelled, anything else failed. */
    static JobData.Outcome outcome(String status) {
        String s = status.trim().toLowerCase(Locale.ROOT);
        if (s.equals("pass") || s.equals("passed") || s.equals("succeeded")) {
            return JobData.Outcome.SUCCEEDED;
        }
        return s.equals("killed") ? JobData.Outcome.CANCELLED : JobData.Outcome.FAILED;
    }

    /** Whether a Philly status is a final one (a job still running at the end of the trace has none). */
    static boolean isFinal(String status) {
        return status != null && !status.isBlank() && !status.trim().equalsIgnoreCase("running");
    }

    /** The start of the attempts must not go back in time; the end of an attempt must not precede its start. */
    static void check(PhillyJob job) {
        if (job.attempts().isEmpty()) {
            throw new IllegalArgumentException(
                    "no scheduling attempt is recorded (the job never ran, or the trace lost its "
                            + "attempts): nothing to replay");
        }
        Instant prev = job.submitted();
        for (int i = 0; i < job.attempts().size(); i++) {
            PhillyJob.Attempt a = job.attempts().get(i);
            if (a.start().isBefore(prev)) {
                throw new IllegalArgumentException("attempt " + i + " starts before "
                        + (i == 0 ? "the submission" : "the previous attempt ended"));
            }
            if (a.end() != null && a.end().isBefore(a.start())) {
                throw new IllegalArgumentException("attempt " + i + " ends before it starts");
            }
            if (a.gpus() <= 0) {
                throw new IllegalArgumentException("attempt " + i + " holds no GPU");
            }
            prev = a.end() != null ? a.end() : a.start();
        }
    }
}
