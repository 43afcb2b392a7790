package io.lifeline.domain.job.hang;

import io.lifeline.domain.event.JobData.HangSuspect;
import io.lifeline.domain.event.TrainerData.StepTimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One job's ranks as their heartbeats describe them, and the thresholds the job has earned: what tells a job that is
 * alive but not training from one that trains slowly, saves, evaluates, or is being restarted.
 *
 * <p>A rank is judged only while its heartbeats arrive: a rank whose reports stopped is <em>silent</em>, not hung (its
 * agent's sender may be cut off, or Lifeline was down), unless the others still report and are stuck too, in which case
 * it is the first suspect. Memory is bounded: at most {@link #MAX_RANKS} ranks, {@link #HISTORY} step times and
 * {@link #SAVES} save times.
 */
public final class HangWatch {

    /** The phase of a rank that steps (or did not say). */
    public static final String TRAINING = "training";
    /** A rank saving a checkpoint. */
    public static final String SAVING = "saving";
    /** A process before its first step. */
    public static final String STARTUP = "startup";
    /** A rank restoring a checkpoint. */
    public static final String RESTORING = "restoring";
    /** A rank held after prepare_exit: it waits on purpose. */
    public static final String HOLDING = "holding";

    static final int MAX_RANKS = 65_536;
    static final int HISTORY = 128;
    static final int SAVES = 16;
    /** Beats this much older than the liveness window are forgotten (ranks of an earlier, larger group). */
    private static final int FORGET_AFTER_LIVENESS = 20;

    private final Map<Integer, RankBeat> beats = new HashMap<>();
    private final double[] slowSteps = new double[HISTORY];
    private int slowStepCount;
    private int slowStepNext;
    private final double[] saves = new double[SAVES];
    private int saveCount;
    private int saveNext;

    /** A rank's report: its heartbeat, and its slowest step when it made steps. */
    public void report(long receivedMs, StepTimes d) {
        if (d.hasSteps()) {
            slowSteps[slowStepNext] = d.maxSeconds() != null ? d.maxSeconds() : d.medianSeconds();
            slowStepNext = (slowStepNext + 1) % HISTORY;
            slowStepCount = Math.min(HISTORY, slowStepCount + 1);
        }
        if (d.sinceStepSeconds() == null || beats.size() >= MAX_RANKS && !beats.containsKey(d.rank())) {
            return; // an agent from before heartbeats: its reports say nothing about a stall
        }
        RankBeat prev = beats.get(d.rank());
        if (prev != null && prev.receivedMs() > receivedMs) {
            return; // a late report must not hide a newer one
        }
        String phase = d.phase() == null ? TRAINING : d.phase();
        double phaseSeconds = d.phaseSeconds() == null ? d.sinceStepSeconds() : d.phaseSeconds();
        beats.put(
                d.rank(),
                new RankBeat(
                        d.rank(),
                        d.localRank(),
                        d.node(),
                        receivedMs,
                        d.toStep(),
                        d.sinceStepSeconds(),
                        phase,
                        phaseSeconds));
    }

    /** A save took {@code seconds}: the job's saves set its save threshold. */
    public void saved(double seconds) {
        if (seconds >= 0 && Double.isFinite(seconds)) {
            saves[saveNext] = seconds;
            saveNext = (saveNext + 1) % SAVES;
            saveCount = Math.min(SAVES, saveCount + 1);
        }
    }

    /** The 99th percentile of the job's recent slowest steps, or null before any. */
    public Double slowStepSeconds() {
        if (slowStepCount == 0) {
            return null;
        }
        double[] v = Arrays.copyOf(slowSteps, slowStepCount);
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.ceil(0.99 * v.length) - 1)];
    }

    /** The slowest of the job's recent saves, or null before any. */
    public Double slowestSaveSeconds() {
        if (saveCount == 0) {
            return null;
        }
        double max = 0;
        for (int i = 0; i < saveCount; i++) {
            max = Math.max(max, saves[i]);
        }
        return max;
    }

    /** The training threshold in seconds, and how it was earned. */
    Threshold trainingThreshold(HangSettings s) {
        Double slow = slowStepSeconds();
        double floor = s.floor().toMillis() / 1000.0;
        double ceiling = s.ceiling().toMillis() / 1000.0;
        if (slow == null) {
            return new Threshold(s.startup().toMillis() / 1000.0, "no step times yet: the start-up threshold");
        }
        double earned = s.stepMultiple() * slow;
        double t = Math.min(ceiling, Math.max(floor, earned));
        String basis = fmt(s.stepMultiple()) + " x p99 step time " + fmt(slow) + " s = " + fmt(earned) + " s"
                + (t > earned
                        ? ", raised to the floor " + fmt(floor) + " s"
                        : t < earned ? ", cut to the ceiling " + fmt(ceiling) + " s" : "");
        return new Threshold(t, basis);
    }

    Threshold saveThreshold(HangSettings s) {
        Double slowest = slowestSaveSeconds();
        double floor = s.saveFloor().toMillis() / 1000.0;
        double ceiling = s.ceiling().toMillis() / 1000.0;
        if (slowest == null) {
            // A job's first save may take minutes (a large model): before one is measured, the start-up threshold.
            double first = Math.min(ceiling, Math.max(floor, s.startup().toMillis() / 1000.0));
            return new Threshold(first, "no save measured yet: the start-up threshold " + fmt(first) + " s");
        }
        double earned = s.saveMultiple() * slowest;
        double t = Math.min(ceiling, Math.max(floor, earned));
        return new Threshold(
                t,
                fmt(s.saveMultiple()) + " x slowest recent save " + fmt(slowest) + " s"
                        + (t > earned ? ", raised to the save floor " + fmt(floor) + " s" : ""));
    }

    private Threshold thresholdOf(String phase, HangSettings s) {
        return switch (phase) {
            case TRAINING -> trainingThreshold(s);
            case SAVING -> saveThreshold(s);
            case STARTUP, RESTORING ->
                new Threshold(
                        s.startup().toMillis() / 1000.0,
                        "the start-up threshold " + fmt(s.startup().toSeconds()) + " s");
            case HOLDING -> new Threshold(Double.POSITIVE_INFINITY, "held on purpose");
            default ->
                new Threshold(
                        s.phase(phase).toMillis() / 1000.0,
                        "declared phase " + phase + ": " + fmt(s.phase(phase).toSeconds()) + " s");
        };
    }

    /** A threshold in seconds and how it was earned. */
    record Threshold(double seconds, String basis) {}

    /**
     * Judges the job at {@code nowMs}: suspected when every rank that still reports has gone without progress past
     * the threshold of what it is doing (one rank inside its threshold, saving or evaluating while the others wait for
     * it, keeps the job from being suspected).
     *
     * @param placement  the node of a rank as the job's membership knows it (for a rank that did not say), or null
     */
    public HangVerdict judge(long nowMs, HangSettings s, java.util.function.IntFunction<String> placement) {
        long liveness = s.liveness().toMillis();
        forgetOld(nowMs, liveness);
        if (beats.isEmpty()) {
            return HangVerdict.of(HangVerdict.UNKNOWN, "no rank has reported a heartbeat");
        }
        List<RankBeat> live = new ArrayList<>();
        List<RankBeat> silent = new ArrayList<>();
        for (RankBeat b : beats.values()) {
            (nowMs - b.receivedMs() <= liveness ? live : silent).add(b);
        }
        if (live.isEmpty()) {
            long newest = beats.values().stream()
                    .mapToLong(RankBeat::receivedMs)
                    .max()
                    .orElse(nowMs);
            return HangVerdict.of(
                    HangVerdict.UNKNOWN,
                    "no rank has reported for " + (nowMs - newest) / 1000
                            + " s: their agents are cut off from Lifeline (or Lifeline was down), which is not a hang");
        }
        live.sort(Comparator.comparingInt(RankBeat::rank));
        long lastMoved = Long.MIN_VALUE;
        double maxThreshold = 0;
        String basis = null;
        boolean allStalled = true;
        boolean anyWorking = false;
        Map<String, Integer> phases = new TreeMap<>();
        for (RankBeat b : live) {
            Threshold t = thresholdOf(b.phase(), s);
            double stall = b.stall();
            phases.merge(b.phase(), 1, Integer::sum);
            if (!HOLDING.equals(b.phase())) {
                anyWorking = true;
            }
            if (!(stall > t.seconds())) {
                allStalled = false;
            }
            lastMoved = Math.max(lastMoved, b.lastMovedMs());
            if (t.seconds() > maxThreshold && Double.isFinite(t.seconds())) {
                maxThreshold = t.seconds();
                basis = t.basis();
            }
        }
        int most = phases.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        // On a tie the ranks that train are the rule: the rank saving or evaluating alone is the one that differs.
        String majority = phases.getOrDefault(TRAINING, 0) == most
                ? TRAINING
                : phases.entrySet().stream()
                        .filter(e -> e.getValue() == most)
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElse(TRAINING);
        List<Integer> silentRanks = silent.stream().map(RankBeat::rank).sorted().toList();
        // The whole job has not moved since the last of its ranks did.
        double stalled = Math.max(0, nowMs - lastMoved) / 1000.0;
        if (!allStalled || !anyWorking) {
            return new HangVerdict(
                    HangVerdict.OK,
                    null,
                    majority,
                    stalled,
                    maxThreshold,
                    basis,
                    null,
                    live.size(),
                    List.of(),
                    silentRanks,
                    List.of(),
                    "training moves (or waits on purpose)");
        }
        String kind = phases.containsKey(SAVING)
                ? "save"
                : phases.keySet().stream().anyMatch(p -> !isBuiltIn(p))
                        ? "phase"
                        : phases.containsKey(STARTUP) || phases.containsKey(RESTORING) ? "startup" : "training";
        List<HangSuspect> suspects = suspects(live, silent, majority, placement);
        List<String> evidence = new ArrayList<>();
        if (suspects.isEmpty()) {
            long step = live.get(0).toStep();
            evidence.add("every reporting rank stopped at step " + step + " in phase " + majority
                    + ": the stacks show which one is the odd one out");
        }
        Instant since = Instant.ofEpochMilli(lastMoved);
        String detail = live.size() + " rank(s) without progress for " + fmt(stalled) + " s (threshold "
                + fmt(maxThreshold) + " s, " + kind + ")";
        return new HangVerdict(
                HangVerdict.SUSPECTED,
                kind,
                majority,
                stalled,
                maxThreshold,
                basis,
                since,
                live.size(),
                suspects,
                silentRanks,
                evidence,
                detail);
    }

    private static boolean isBuiltIn(String phase) {
        return switch (phase) {
            case TRAINING, SAVING, STARTUP, RESTORING, HOLDING -> true;
            default -> false;
        };
    }

    /** Ranks that stopped at an earlier step, are in another phase than most, or went silent while others report. */
    private static List<HangSuspect> suspects(
            List<RankBeat> live,
            List<RankBeat> silent,
            String majority,
            java.util.function.IntFunction<String> placement) {
        List<HangSuspect> out = new ArrayList<>();
        long maxStep = live.stream().mapToLong(RankBeat::toStep).max().orElse(0);
        for (RankBeat b : silent) {
            out.add(suspect(
                    b,
                    placement,
                    "its agent stopped reporting while the other ranks still do: the process may be"
                            + " frozen (an interpreter held by a stuck call)"));
        }
        for (RankBeat b : live) {
            if (out.size() >= 64) {
                break;
            }
            if (b.toStep() < maxStep) {
                out.add(suspect(b, placement, "stopped at step " + b.toStep() + " while others reached " + maxStep));
            } else if (!b.phase().equals(majority)) {
                out.add(suspect(
                        b,
                        placement,
                        "in phase " + b.phase() + " for " + fmt(b.phaseSeconds()) + " s while the others are in "
                                + majority));
            }
        }
        return out.size() > 64 ? out.subList(0, 64) : out;
    }

    private static HangSuspect suspect(RankBeat b, java.util.function.IntFunction<String> placement, String why) {
        String node = b.node() != null ? b.node() : placement == null ? null : placement.apply(b.rank());
        String gpu = b.localRank() != null ? String.valueOf(b.localRank()) : null;
        return new HangSuspect(b.rank(), node, gpu, b.toStep(), why);
    }

    private void forgetOld(long nowMs, long liveness) {
        long horizon = nowMs - liveness * FORGET_AFTER_LIVENESS;
        for (Iterator<RankBeat> it = beats.values().iterator(); it.hasNext(); ) {
            if (it.next().receivedMs() < horizon) {
                it.remove();
            }
        }
    }

    static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15
                ? Long.toString((long) v)
                : String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
