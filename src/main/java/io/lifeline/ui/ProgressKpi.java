package io.lifeline.ui;

import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.ProgressView;
import java.time.Instant;

/** The job page's progress figure: what it reached, and which source Lifeline trusts for it. */
final class ProgressKpi {

    private ProgressKpi() {}

    /** The value: the step the trusted source reached, or the TrainJob's percentage when that is all there is. */
    static String value(JobSummary s, ProgressView p) {
        if (p != null && ProgressView.TRAINJOB_STATUS.equals(p.source()) && p.percent() != null) {
            return p.percent() + " %";
        }
        return s.lastStep() == null ? "—" : "step " + s.lastStep();
    }

    /** The hint: the source Lifeline trusts, then what the TrainJob's status adds (ETA, age of its report). */
    static String hint(ProgressView p, Instant now) {
        if (p == null) {
            return "source: none";
        }
        StringBuilder b = new StringBuilder("source: ").append(p.source());
        if (p.statusReportedAt() != null) {
            b.append(" · trainerStatus ");
            if (p.percent() != null) {
                b.append(p.percent()).append(" %, ");
            }
            if (p.remainingSeconds() != null) {
                b.append("ETA ")
                        .append(Format.duration(p.remainingSeconds() * 1000))
                        .append(", ");
            }
            b.append("reported ").append(Format.ago(p.statusReportedAt(), now));
        }
        return b.toString();
    }
}
