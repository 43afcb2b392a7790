package io.lifeline.domain.job;

import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.List;

/**
 * Which progress source Lifeline trusts for a job, and what the controller's status report says besides.
 *
 * <p>The rule: the trainers' own {@code trainer.progress} (the Lifeline agent) is trusted from its first report on;
 * without it, the controller's status report (a TrainJob's {@code trainerStatus}) is the job's progress; without
 * either, nothing is. Both are shown, only one moves the job.
 *
 * @param source            {@value #AGENT}, {@value #TRAINJOB_STATUS} or {@value #NONE}
 * @param why               the rule that chose it, in one sentence
 * @param statusReportedAt  the newest status report's time (by the trainers' clock), or null without one
 * @param percent           its percentage complete, or null
 * @param remainingSeconds  its estimated time left, or null
 * @param statusStep        its step when a metric named it, or null
 * @param totalSteps        its planned steps when a metric named them, or null
 * @param metrics           its metrics as reported
 * @param reportIntervalSeconds the p99 interval between its reports (the resolution of a hang judged from them), or
 *                          null before two reports
 */
public record ProgressView(
        String source,
        String why,
        Instant statusReportedAt,
        Integer percent,
        Long remainingSeconds,
        Long statusStep,
        Long totalSteps,
        List<TrainerData.Metric> metrics,
        Double reportIntervalSeconds) {

    /** The trainers report their own progress (the agent). */
    public static final String AGENT = "agent";
    /** The controller's status report is the job's progress. */
    public static final String TRAINJOB_STATUS = "trainjob status";
    /** No progress reported. */
    public static final String NONE = "none";

    public ProgressView {
        metrics = metrics == null ? List.of() : List.copyOf(metrics);
    }

    static ProgressView of(Job job) {
        io.lifeline.domain.job.hang.StatusWatch w = job.statusReports;
        TrainerData.StatusReport r = w == null ? null : w.last();
        String source;
        String why;
        if (job.agentProgress) {
            source = AGENT;
            why = r == null
                    ? "the trainers report trainer.progress themselves"
                    : "the trainers report trainer.progress themselves, which is trusted over the TrainJob's"
                            + " trainerStatus (shown, not counted)";
        } else if (r != null) {
            source = TRAINJOB_STATUS;
            why = "no trainer.progress from the trainers: the TrainJob's status.trainerStatus is the job's progress"
                    + " (one report per logging interval, for the whole job: no rank, a hang seen at that resolution)";
        } else {
            source = NONE;
            why = "no progress reported yet (neither trainer.progress nor a TrainJob trainerStatus)";
        }
        return new ProgressView(
                source,
                why,
                r == null ? null : r.reportedAt(),
                r == null ? null : r.percent(),
                r == null ? null : r.remainingSeconds(),
                r == null ? null : r.step(),
                r == null ? null : r.totalSteps(),
                r == null ? List.of() : r.metrics(),
                w == null ? null : w.intervalSeconds());
    }
}
