package io.lifeline.domain.job.hang;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How long a job may go without progress before it is suspected hung, per phase. The training threshold is earned
 * from the job's own step times ({@code stepMultiple} × its slow steps), kept between {@code floor} and
 * {@code ceiling}; a save from the job's own save times ({@code saveMultiple} × its slowest recent save, at least
 * {@code saveFloor}); the first steps of a process and a restore get {@code startup}; a phase the training loop declares
 * gets its entry in {@code phases}, else {@code phaseDefault}.
 *
 * @param floor         the shortest training threshold
 * @param ceiling       the longest threshold of any kind
 * @param stepMultiple  how many of the job's slow steps (99th percentile) make its threshold
 * @param startup       a process before its first step, or restoring
 * @param saveMultiple  how many of the job's slowest recent saves a save may take
 * @param saveFloor     the shortest save threshold (also the one used before the job's first save)
 * @param phaseDefault  a declared phase without its own entry
 * @param phases        declared phases by name
 * @param liveness      a rank whose last report is older is silent: its stall is not judged
 */
public record HangSettings(
        Duration floor,
        Duration ceiling,
        double stepMultiple,
        Duration startup,
        double saveMultiple,
        Duration saveFloor,
        Duration phaseDefault,
        Map<String, Duration> phases,
        Duration liveness) {

    public HangSettings {
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(ceiling, "ceiling");
        phases = Map.copyOf(phases);
        if (floor.isNegative() || floor.isZero() || ceiling.compareTo(floor) < 0) {
            throw new IllegalArgumentException("need 0 < floor <= ceiling, got " + floor + " and " + ceiling);
        }
        if (!(stepMultiple >= 1) || !(saveMultiple >= 1)) {
            throw new IllegalArgumentException("multiples must be at least 1");
        }
        if (liveness.isNegative() || liveness.isZero()) {
            throw new IllegalArgumentException("liveness must be positive");
        }
    }

    /**
     * The production defaults: 4 slow steps, at least 30 s and at most 30 minutes; 10 minutes for a start or a
     * restore; 4 × the slowest recent save, at least 2 minutes; 30 minutes for a declared phase; silent after 35 s
     * (three heartbeats of 10 s and a margin).
     */
    public static HangSettings defaults() {
        return new HangSettings(
                Duration.ofSeconds(30),
                Duration.ofMinutes(30),
                4,
                Duration.ofMinutes(10),
                4,
                Duration.ofMinutes(2),
                Duration.ofMinutes(30),
                Map.of(),
                Duration.ofSeconds(35));
    }

    /** The threshold of a declared phase. */
    public Duration phase(String name) {
        Duration d = phases.get(name);
        return d != null ? d : phaseDefault;
    }
}
