package io.lifeline.domain.job.hang;

import io.lifeline.domain.event.TrainerData.StatusReport;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * A job's progress as its controller's status reports it (Kubeflow Trainer's {@code trainerStatus}), and the hang
 * judgement that is all such reports allow: the job is suspected when no new report came for longer than its earned
 * threshold. One report covers the whole job, made every logging interval of the trainers (a Transformers
 * {@code logging_steps}, the SDK's five seconds at the least), so the verdict names no rank, node or phase, and a stall
 * shorter than the threshold goes unseen: the resolution is the interval between reports, not a step.
 */
public final class StatusWatch {

    /** The kind of a suspicion judged from status reports alone. */
    public static final String KIND = "status";

    static final int HISTORY = 64;

    private StatusReport last;
    private long reports;
    private final double[] intervals = new double[HISTORY];
    private int intervalCount;
    private int intervalNext;

    /**
     * Takes a report; whether it is newer than the last one taken (a repeat, or a report older than the newest, says
     * nothing new and is dropped).
     */
    public boolean report(StatusReport r) {
        if (last != null && !r.reportedAt().isAfter(last.reportedAt())) {
            return false;
        }
        if (last != null) {
            intervals[intervalNext] =
                    (r.reportedAt().toEpochMilli() - last.reportedAt().toEpochMilli()) / 1000.0;
            intervalNext = (intervalNext + 1) % HISTORY;
            intervalCount = Math.min(HISTORY, intervalCount + 1);
        }
        last = r;
        reports++;
        return true;
    }

    /** The newest report, or null before any. */
    public StatusReport last() {
        return last;
    }

    /** Reports taken. */
    public long reports() {
        return reports;
    }

    /** The 99th percentile of the recent intervals between reports, or null before two reports. */
    public Double intervalSeconds() {
        if (intervalCount == 0) {
            return null;
        }
        double[] v = Arrays.copyOf(intervals, intervalCount);
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.ceil(0.99 * v.length) - 1)];
    }

    /**
     * The threshold: {@code stepMultiple} × the p99 interval between reports, kept between the floor and the ceiling;
     * the start-up threshold before two intervals were measured (one interval is no pace).
     */
    HangWatch.Threshold threshold(HangSettings s) {
        Double p99 = intervalSeconds();
        if (p99 == null || intervalCount < 2) {
            double t = s.startup().toMillis() / 1000.0;
            return new HangWatch.Threshold(
                    t, "fewer than two intervals between status reports yet: the start-up threshold " + fmt(t) + " s");
        }
        double earned = s.stepMultiple() * p99;
        double floor = s.floor().toMillis() / 1000.0;
        double ceiling = s.ceiling().toMillis() / 1000.0;
        double t = Math.min(ceiling, Math.max(floor, earned));
        return new HangWatch.Threshold(
                t,
                fmt(s.stepMultiple()) + " x p99 interval between status reports " + fmt(p99) + " s = " + fmt(earned)
                        + " s"
                        + (t > earned
                                ? ", raised to the floor " + fmt(floor) + " s"
                                : t < earned ? ", cut to the ceiling " + fmt(ceiling) + " s" : ""));
    }

    /** Judges the job at {@code nowMs} from its reports alone. */
    public HangVerdict judge(long nowMs, HangSettings s) {
        if (last == null) {
            return HangVerdict.of(HangVerdict.UNKNOWN, "no status report yet");
        }
        HangWatch.Threshold t = threshold(s);
        Instant since = last.reportedAt();
        double stalled = Math.max(0, nowMs - since.toEpochMilli()) / 1000.0;
        if (last.percent() != null && last.percent() >= 100) {
            return ok(stalled, t, since, "the trainers reported the run complete (100 %): no more reports are due");
        }
        if (!(stalled > t.seconds())) {
            return ok(
                    stalled,
                    t,
                    since,
                    "the last status report is " + fmt(stalled) + " s old (threshold " + fmt(t.seconds()) + " s)");
        }
        String at = (last.percent() == null ? "" : last.percent() + " %")
                + (last.step() == null ? "" : (last.percent() == null ? "" : ", ") + "step " + last.step());
        List<String> evidence =
                List.of("the only progress source is the controller's status report (one for the whole job, the last "
                        + (at.isEmpty() ? "" : "at " + at + ", ") + "made " + since
                        + "): it names no rank or node, and stalls shorter than the threshold are not seen");
        return new HangVerdict(
                HangVerdict.SUSPECTED,
                KIND,
                null,
                stalled,
                t.seconds(),
                t.basis(),
                since,
                0,
                List.of(),
                List.of(),
                evidence,
                "no status report for " + fmt(stalled) + " s (threshold " + fmt(t.seconds()) + " s, " + reports
                        + " report(s) seen)");
    }

    /** No hang: the report is recent enough, or the run said it is complete. */
    private static HangVerdict ok(double stalled, HangWatch.Threshold t, Instant since, String why) {
        return new HangVerdict(
                HangVerdict.OK,
                null,
                null,
                stalled,
                t.seconds(),
                t.basis(),
                since,
                0,
                List.of(),
                List.of(),
                List.of(),
                why);
    }

    private static String fmt(double v) {
        return HangWatch.fmt(v);
    }
}
