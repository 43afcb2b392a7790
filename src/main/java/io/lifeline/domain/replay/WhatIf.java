package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.spot.SpotPrices;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * Runs a what-if: expands the request into scenarios, replays each through the real model
 * ({@link WhatIfSimulator}), and answers them side by side with what actually happened.
 *
 * <p>Spot or on-demand: a scenario that puts the job's pool on another capacity type scales its interruptions by
 * the ratio of the two types' interruption rates ({@link InterruptionRates}): fewer are kept one in so many, in order
 * (deterministic); more are added at the difference of the rates as Poisson arrivals (seeded by the job's name),
 * announced two minutes ahead like a spot reclaim and recovered in the job's mean recovery. Without both rates,
 * on-demand drops the spot reclaims and preemptions and keeps the rest, and spot cannot be answered.
 */
public final class WhatIf {

    /** The lead of a spot reclaim notice, for interruptions a scenario adds. */
    static final long SPOT_NOTICE_MILLIS = 120_000;

    private WhatIf() {}

    /**
     * @param finished  whether the job has ended (its window ends then), else it runs until {@code job.end()}
     * @param stop      asked during the replays; true cancels with {@link ReplayCancelledException}
     * @throws IllegalArgumentException when the request asks for too many scenarios or a scenario for too many events
     */
    public static WhatIfReport run(
            WhatIfJob job,
            boolean finished,
            WhatIfRequest request,
            SpotPrices prices,
            InterruptionRates rates,
            WhatIfLimits limits,
            BooleanSupplier stop,
            Clock clock) {
        long began = clock.millis();
        List<String> notes = new ArrayList<>();
        double c = cost(job, request, limits, notes);
        List<WhatIfScenario> scenarios = scenarios(job, request, c, limits, notes);
        double window = job.windowSeconds();
        for (WhatIfScenario s : scenarios) {
            long events = WhatIfSimulator.events(
                    window,
                    s.intervalSeconds(),
                    s.checkpointCostSeconds(),
                    job.interruptions().size() * 2);
            if (events > limits.maxEventsPerScenario()) {
                throw new IllegalArgumentException(String.format(
                        java.util.Locale.ROOT,
                        "an interval of %.0f s over the job's %.1f h would replay about %d events (limit %d): "
                                + "choose a longer interval",
                        s.intervalSeconds(),
                        window / 3600,
                        events,
                        limits.maxEventsPerScenario()));
            }
        }
        Double mtbi = job.interruptions().isEmpty()
                ? null
                : window / job.interruptions().size();
        List<WhatIfRow> rows = new ArrayList<>();
        rows.add(actual(job, prices, mtbi));
        for (WhatIfScenario s : scenarios) {
            List<ReplayInterruption> interruptions = interruptionsFor(job, s, rates, notes);
            if (interruptions == null) {
                continue;
            }
            GoodputView g = WhatIfSimulator.run(
                    job.job(), job.start(), job.end(), finished, job.gpus(), job.nodes(), interruptions, s, stop);
            CapacityType cap = s.capacity() != null ? s.capacity() : job.capacity();
            Double price = prices.price(job.pool(), cap);
            double r = s.recoverySeconds() != null ? s.recoverySeconds() : job.recoverySeconds();
            Double model = interruptions.isEmpty()
                    ? Double.valueOf(1 - s.checkpointCostSeconds() / s.intervalSeconds())
                    : Double.valueOf(IntervalAdvisor.expectedEttr(
                            s.intervalSeconds(), s.checkpointCostSeconds(), window / interruptions.size(), r));
            rows.add(row(
                    s.name(),
                    false,
                    s.intervalSeconds(),
                    s.intervalSource(),
                    s.checkpointCostSeconds(),
                    s.noticePolicy(),
                    cap,
                    interruptions.size(),
                    g,
                    model,
                    price));
        }
        if (job.interruptions().stream().noneMatch(i -> i.noticeLeadMillis() != null)) {
            notes.add("no interruption of this job came with a notice: the notice policy changes nothing here");
        }
        return new WhatIfReport(
                job.job(),
                job.start(),
                job.end(),
                job.gpus(),
                job.nodes(),
                job.pool(),
                mtbi,
                job.currentIntervalSeconds(),
                advised(job, c, mtbi),
                rows,
                List.copyOf(new LinkedHashSet<>(notes)),
                clock.millis() - began);
    }

    private static double cost(WhatIfJob job, WhatIfRequest request, WhatIfLimits limits, List<String> notes) {
        if (request.checkpointCostSeconds() != null) {
            if (!(request.checkpointCostSeconds() >= 0)
                    || request.checkpointCostSeconds().isInfinite()) {
                throw new IllegalArgumentException("checkpointCostSeconds must be a number >= 0");
            }
            return request.checkpointCostSeconds();
        }
        if (job.checkpointCostSeconds() != null) {
            return job.checkpointCostSeconds();
        }
        notes.add(String.format(
                java.util.Locale.ROOT,
                "no measured checkpoint cost: C = %.0f s assumed",
                limits.defaultCheckpointCostSeconds()));
        return limits.defaultCheckpointCostSeconds();
    }

    /** The advised interval: the job's own advice, else Daly's from C and the window's observed M. */
    private static Double advised(WhatIfJob job, double c, Double mtbi) {
        if (job.advisedIntervalSeconds() != null) {
            return job.advisedIntervalSeconds();
        }
        if (mtbi == null) {
            return null;
        }
        return c <= IntervalAdvisor.FIRST_ORDER_LIMIT * mtbi
                ? IntervalAdvisor.dalyFirstOrder(c, mtbi)
                : IntervalAdvisor.dalyHigherOrder(c, mtbi);
    }

    static List<WhatIfScenario> scenarios(
            WhatIfJob job, WhatIfRequest request, double c, WhatIfLimits limits, List<String> notes) {
        List<double[]> intervals = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (Double tau : request.intervalsSeconds()) {
            if (tau == null || !(tau > 0) || tau.isInfinite()) {
                throw new IllegalArgumentException("intervalsSeconds: every interval must be a number > 0, got " + tau);
            }
            intervals.add(new double[] {tau});
            sources.add("fixed");
        }
        if (request.intervalsSeconds().isEmpty()) {
            if (job.currentIntervalSeconds() != null && job.currentIntervalSeconds() > 0) {
                intervals.add(new double[] {job.currentIntervalSeconds()});
                sources.add("current");
            } else if (!request.advice()) {
                throw new IllegalArgumentException(
                        "the job's current interval is not known: give intervalsSeconds or advice");
            }
        }
        if (request.advice()) {
            Double mtbi = job.interruptions().isEmpty()
                    ? null
                    : job.windowSeconds() / job.interruptions().size();
            Double a = advised(job, c, mtbi);
            if (a == null || !(a > 0)) {
                notes.add("no advice: the job had no interruption to measure M on");
            } else {
                intervals.add(new double[] {a});
                sources.add("advice");
            }
        }
        List<Boolean> notice = request.noticePolicy().isEmpty() ? List.of(true) : request.noticePolicy();
        List<CapacityType> caps = new ArrayList<>();
        if (request.capacity().isEmpty()) {
            caps.add(null);
        } else {
            for (CapacityType t : request.capacity()) {
                caps.add(t == job.capacity() ? null : t);
            }
        }
        if (request.recoverySeconds() != null
                && (!(request.recoverySeconds() >= 0)
                        || request.recoverySeconds().isInfinite())) {
            throw new IllegalArgumentException("recoverySeconds must be a number >= 0");
        }
        if (request.noticeLeadSeconds() != null
                && (!(request.noticeLeadSeconds() >= 0)
                        || request.noticeLeadSeconds().isInfinite())) {
            throw new IllegalArgumentException("noticeLeadSeconds must be a number >= 0");
        }
        long count = (long) intervals.size() * notice.size() * caps.size();
        if (count > limits.maxScenarios()) {
            throw new IllegalArgumentException("the request asks for " + count + " scenarios; at most "
                    + limits.maxScenarios() + " are replayed at once");
        }
        List<WhatIfScenario> out = new ArrayList<>();
        for (CapacityType cap : caps) {
            for (Boolean n : notice) {
                for (int i = 0; i < intervals.size(); i++) {
                    out.add(new WhatIfScenario(
                            intervals.get(i)[0],
                            sources.get(i),
                            c,
                            request.recoverySeconds(),
                            request.noticeLeadSeconds(),
                            Boolean.TRUE.equals(n),
                            cap));
                }
            }
        }
        return out;
    }

    /** The interruptions of a scenario's capacity type, or null when they cannot be told (with a note why). */
    static List<ReplayInterruption> interruptionsFor(
            WhatIfJob job, WhatIfScenario s, InterruptionRates rates, List<String> notes) {
        if (s.capacity() == null) {
            return job.interruptions();
        }
        Double from = job.capacity() == null ? null : rates.perNodeHour(job.pool(), job.capacity());
        Double to = rates.perNodeHour(job.pool(), s.capacity());
        if (from == null || to == null || from <= 0) {
            if (s.capacity() == CapacityType.ON_DEMAND) {
                notes.add("interruption rates of " + job.pool() + " by capacity type unknown: on-demand drops the spot "
                        + "reclaims and preemptions and keeps the rest");
                return job.interruptions().stream()
                        .filter(i -> i.cause() != IncidentCause.SPOT_RECLAIM && i.cause() != IncidentCause.PREEMPTION)
                        .toList();
            }
            notes.add("interruption rates of " + job.pool() + " by capacity type unknown: "
                    + s.capacity().wireName() + " cannot be answered");
            return null;
        }
        double f = to / from;
        notes.add(String.format(
                java.util.Locale.ROOT,
                "%s: %.4f interruptions per node-hour against %.4f on %s",
                s.capacity().wireName(),
                to,
                from,
                job.capacity().wireName()));
        List<ReplayInterruption> out = new ArrayList<>();
        if (f <= 1) {
            double acc = 0;
            for (ReplayInterruption i : job.interruptions()) {
                acc += f;
                if (acc >= 1) {
                    acc -= 1;
                    out.add(i);
                }
            }
            return out;
        }
        out.addAll(job.interruptions());
        double perMs = (to - from) * job.nodes() / 3_600_000.0;
        Random random = new Random(job.job().hashCode());
        long t = job.start().toEpochMilli();
        long end = job.end().toEpochMilli();
        long recovery = Math.round(job.recoverySeconds() * 1000);
        while (true) {
            t += (long) Math.ceil(-Math.log(1 - random.nextDouble()) / perMs);
            if (t >= end) {
                break;
            }
            out.add(new ReplayInterruption(
                    java.time.Instant.ofEpochMilli(t),
                    recovery,
                    IncidentCause.SPOT_RECLAIM,
                    job.pool(),
                    SPOT_NOTICE_MILLIS));
        }
        out.sort(java.util.Comparator.comparing(ReplayInterruption::stoppedAt));
        return out;
    }

    private static WhatIfRow actual(WhatIfJob job, SpotPrices prices, Double mtbi) {
        Double price = prices.price(job.pool(), job.capacity());
        Double model = mtbi == null || job.currentIntervalSeconds() == null || job.checkpointCostSeconds() == null
                ? null
                : IntervalAdvisor.expectedEttr(
                        job.currentIntervalSeconds(), job.checkpointCostSeconds(), mtbi, job.recoverySeconds());
        return row(
                "actual",
                true,
                job.currentIntervalSeconds(),
                null,
                job.checkpointCostSeconds(),
                null,
                job.capacity(),
                job.interruptions().size(),
                job.actual(),
                model,
                price);
    }

    private static WhatIfRow row(
            String name,
            boolean actual,
            Double tau,
            String source,
            Double c,
            Boolean notice,
            CapacityType cap,
            int interruptions,
            GoodputView g,
            Double model,
            Double price) {
        double h = GoodputView.MILLIS_PER_HOUR;
        return new WhatIfRow(
                name,
                actual,
                tau,
                source,
                c,
                notice,
                cap == null ? null : cap.wireName(),
                interruptions,
                g.ettr(),
                g.ettrOfWall(),
                model,
                g.productiveMillis() / h,
                g.checkpointMillis() / h,
                g.lostReworkMillis() / h,
                g.recoveryMillis() / h,
                g.lostGpuHours(),
                price,
                price == null ? null : g.lostGpuHours() * price);
    }
}
