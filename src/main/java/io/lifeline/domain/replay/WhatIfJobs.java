package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** A job of a jobs model (the live one, or one a trace was played into) as what-if input. Small: run it on the model thread. */
public final class WhatIfJobs {

    private WhatIfJobs() {}

    /**
     * @param jobs  the model
     * @param job   the job's name
     * @param now   the model's now (the end of a job still running)
     */
    public static Optional<WhatIfJob> of(Jobs jobs, String job, Instant now) {
        Optional<JobDetail> found = jobs.detail(job);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        JobDetail d = found.get();
        JobSummary s = d.summary();
        List<IncidentView> incidents = jobs.incidents(job).orElse(List.of());
        List<ReplayInterruption> out = new ArrayList<>();
        int gpus = s.gpusHeld();
        long recoveries = 0;
        int recovered = 0;
        for (IncidentView i : incidents) {
            if (!i.interrupted()) {
                continue;
            }
            Long lead = i.announcedLeadMillis() != null ? i.announcedLeadMillis() : i.actualLeadMillis();
            out.add(new ReplayInterruption(i.stoppedAt(), i.recoveryMillis(), i.cause(), i.pool(), lead));
            gpus = Math.max(gpus, i.gpusAtStop());
            if (i.closedAt() != null) {
                recoveries += i.recoveryMillis();
                recovered++;
            }
        }
        out.sort(Comparator.comparing(ReplayInterruption::stoppedAt));
        if (gpus <= 0 && d.elastic() != null) {
            gpus = d.elastic().maxNodes() * Math.max(1, d.gpusPerNode());
        }
        int nodes =
                s.nodes() > 0 ? s.nodes() : d.elastic() != null ? d.elastic().maxNodes() : 1;
        Optional<IntervalAdvice> advice = jobs.advice(job);
        Double c = advice.map(IntervalAdvice::checkpointCostSeconds).orElse(null);
        Double current = advice.map(IntervalAdvice::currentIntervalSeconds).orElse(null);
        Double advised = advice.map(IntervalAdvice::recommendedSeconds).orElse(null);
        double r = recovered == 0 ? 0 : recoveries / 1000.0 / recovered;
        Instant end = s.finishedAt() != null ? s.finishedAt() : now;
        return Optional.of(new WhatIfJob(
                job,
                firstRun(s.submittedAt(), d, out),
                end,
                Math.max(1, gpus),
                Math.max(1, nodes),
                s.pool(),
                CapacityType.fromWireName(s.capacityType()),
                current,
                c,
                r,
                advised,
                out,
                d.goodput()));
    }

    /**
     * When the job first ran: its oldest rendezvous kept, if no interruption came before it (the history of rounds is
     * bounded, and every restart makes a round, so an interruption before the oldest kept round means the first ones
     * were dropped); else the submission. Replaying from the submission would count the time queued as training.
     */
    private static Instant firstRun(Instant submitted, JobDetail d, List<ReplayInterruption> interruptions) {
        if (d.membership() == null || d.membership().rounds().isEmpty() || submitted == null) {
            return submitted;
        }
        Instant first = d.membership().rounds().get(0).time();
        boolean beforeFirstStop =
                interruptions.isEmpty() || !first.isAfter(interruptions.get(0).stoppedAt());
        return first != null && first.isAfter(submitted) && beforeFirstStop ? first : submitted;
    }
}
