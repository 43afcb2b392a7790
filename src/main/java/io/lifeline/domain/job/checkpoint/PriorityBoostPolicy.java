package io.lifeline.domain.job.checkpoint;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Whether a job's scheduler workload should carry a priority boost now (Kueue's {@code kueue.x-k8s.io/priority-boost},
 * KEP-7990): boosted while the work an interruption would throw away, the job's work at risk since its newest
 * counted checkpoint (a verified one, when the job verifies), is above a threshold; not boosted once a checkpoint
 * brings it back under (preempting the job is cheap again), nor while the job holds no GPU (nothing to lose, and a
 * boost would only move it ahead in the queue). Work at risk only grows between checkpoints, so the boost changes at
 * most twice per checkpoint interval.
 */
public final class PriorityBoostPolicy {

    /**
     * The policy's settings.
     *
     * @param value              the boost written while at risk (added to the workload's priority), at least 1
     * @param gpuHoursThreshold  GPU-hours at risk at or above which the job is boosted; 0 turns this test off
     * @param ageThreshold       checkpoint age at or above which the job is boosted; zero turns this test off
     */
    public record Settings(int value, double gpuHoursThreshold, Duration ageThreshold) {

        public Settings {
            Objects.requireNonNull(ageThreshold, "ageThreshold");
            if (value < 1) {
                throw new IllegalArgumentException("the priority boost must be at least 1, not " + value);
            }
            if (!Double.isFinite(gpuHoursThreshold) || gpuHoursThreshold < 0) {
                throw new IllegalArgumentException(
                        "the GPU-hours threshold must be 0 or more, not " + gpuHoursThreshold);
            }
            if (ageThreshold.isNegative()) {
                throw new IllegalArgumentException(
                        "the checkpoint age threshold must not be negative: " + ageThreshold);
            }
            if (gpuHoursThreshold == 0 && ageThreshold.isZero()) {
                throw new IllegalArgumentException("set a GPU-hours or a checkpoint age threshold (both are 0)");
            }
        }
    }

    /**
     * What the workload should carry.
     *
     * @param boost   the boost, or null for none
     * @param at      when this was decided (the injected clock)
     * @param reason  why, in words (for the audit)
     */
    public record Decision(Integer boost, Instant at, String reason) {

        public boolean boosted() {
            return boost != null;
        }
    }

    private final Settings settings;
    private final Clock clock;

    public PriorityBoostPolicy(Settings settings, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Settings settings() {
        return settings;
    }

    /** The decision for a job with freshness {@code f}; null when the model does not know the job (no boost). */
    public Decision decide(FreshnessView f) {
        Instant now = clock.instant();
        if (f == null) {
            return new Decision(null, now, "the job is not tracked");
        }
        String since = f.checkpointId() == null
                ? "since the job first trained"
                : "since checkpoint " + f.checkpointId() + (f.step() == null ? "" : " (step " + f.step() + ")");
        if (f.gpusHeld() <= 0 || f.ageMillis() == null) {
            return new Decision(null, now, "the job holds no GPU: nothing at risk");
        }
        String risk = String.format(
                Locale.ROOT,
                "%.2f GPU-hours at risk, checkpoint age %d s %s",
                f.workAtRiskGpuHours(),
                f.ageMillis() / 1000,
                since);
        boolean byGpuHours = settings.gpuHoursThreshold() > 0 && f.workAtRiskGpuHours() >= settings.gpuHoursThreshold();
        boolean byAge = !settings.ageThreshold().isZero()
                && f.ageMillis() >= settings.ageThreshold().toMillis();
        if (byGpuHours || byAge) {
            return new Decision(settings.value(), now, risk + ": at or above " + thresholds());
        }
        return new Decision(null, now, risk + ": below " + thresholds());
    }

    private String thresholds() {
        StringBuilder b = new StringBuilder();
        if (settings.gpuHoursThreshold() > 0) {
            b.append(String.format(Locale.ROOT, "%.2f GPU-hours", settings.gpuHoursThreshold()));
        }
        if (!settings.ageThreshold().isZero()) {
            b.append(b.length() > 0 ? " or " : "")
                    .append(settings.ageThreshold().toSeconds())
                    .append(" s");
        }
        return b.toString();
    }
}
