package io.lifeline.platform;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * How long to wait before attempt {@code n + 1} of something that failed {@code n} times: {@code initial ×
 * multiplier^(n−1)}, never more than {@code max}, optionally shortened by a random part (jitter) so that many loops
 * failing together do not retry together. Immutable; one value per loop, built from its settings.
 *
 * <pre>
 *   Backoff.exponential(Duration.ofMillis(100), Duration.ofSeconds(5))   100, 200, 400, ... 3200, 5000, 5000 ms
 *   .fullJitter(random)    anywhere in [0, d]       (spreads a crowd best, may retry at once)
 *   .equalJitter(random)   anywhere in [d/2, d]     (at least half the pause)
 *   .jitter(0.1, random)   anywhere in [0.9 d, d]
 * </pre>
 *
 * A server's {@code Retry-After} is honoured by {@link #delay(int, Duration)}: the pause is then at least what the
 * server asked for, though never longer than {@code max}, so a server cannot park a loop for hours.
 */
public final class Backoff {

    /** Each call asks the calling thread's generator: safe to share between threads. */
    private static final RandomGenerator THREAD_LOCAL =
            () -> ThreadLocalRandom.current().nextLong();

    private final Duration initial;
    private final Duration max;
    private final double multiplier;
    private final double jitter;
    private final RandomGenerator random;

    private Backoff(Duration initial, Duration max, double multiplier, double jitter, RandomGenerator random) {
        this.initial = initial;
        this.max = max;
        this.multiplier = multiplier;
        this.jitter = jitter;
        this.random = random;
    }

    /**
     * Doubling from {@code initial} up to {@code max}, without jitter.
     *
     * @throws IllegalArgumentException when {@code initial} is not positive or {@code max} is shorter than it
     */
    public static Backoff exponential(Duration initial, Duration max) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial back-off must be positive, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max back-off " + max + " is shorter than the initial " + initial);
        }
        return new Backoff(initial, max, 2.0, 0.0, THREAD_LOCAL);
    }

    /**
     * Doubling from {@code initial} up to {@code max}, for values read from configuration, where a loop must keep
     * going rather than fail: an initial pause below 1 ms becomes 1 ms (never a busy loop), and a maximum below the
     * initial pause wins (it is the longest wait the operator allows).
     */
    public static Backoff fromSettings(Duration initial, Duration max) {
        Duration floor = Duration.ofMillis(1);
        Duration longest = max.compareTo(floor) < 0 ? floor : max;
        Duration first = initial.compareTo(floor) < 0 ? floor : initial;
        return exponential(first.compareTo(longest) > 0 ? longest : first, longest);
    }

    /** {@link #exponential(Duration, Duration)} in milliseconds. */
    public static Backoff exponentialMillis(long initialMillis, long maxMillis) {
        return exponential(Duration.ofMillis(initialMillis), Duration.ofMillis(maxMillis));
    }

    /** The same back-off growing by {@code factor} per failure (at least 1: 1 keeps the pause constant). */
    public Backoff multiplier(double factor) {
        if (!(factor >= 1.0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("back-off multiplier must be at least 1, got " + factor);
        }
        return new Backoff(initial, max, factor, jitter, random);
    }

    /** Full jitter: each pause drawn uniformly from {@code [0, d]}. */
    public Backoff fullJitter(RandomGenerator random) {
        return jitter(1.0, random);
    }

    /** Equal jitter: each pause drawn uniformly from {@code [d/2, d]}. */
    public Backoff equalJitter(RandomGenerator random) {
        return jitter(0.5, random);
    }

    /** Each pause drawn uniformly from {@code [d × (1 − fraction), d]}; 0 is no jitter, 1 full jitter. */
    public Backoff jitter(double fraction, RandomGenerator random) {
        if (!(fraction >= 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("jitter fraction must be within [0, 1], got " + fraction);
        }
        return new Backoff(initial, max, multiplier, fraction, Objects.requireNonNull(random, "random"));
    }

    /** {@link #jitter(double, RandomGenerator)} with the calling thread's random generator. */
    public Backoff jitter(double fraction) {
        return jitter(fraction, THREAD_LOCAL);
    }

    /** The pause before the next attempt after {@code failures} failures in a row (1 for the first failure). */
    public Duration delay(int failures) {
        long nanos = ceilingNanos(failures);
        if (jitter > 0) {
            nanos -= (long) (nanos * jitter * random.nextDouble());
        }
        return Duration.ofNanos(nanos);
    }

    /**
     * The pause after {@code failures} failures when the server said when to come back ({@code retryAfter}, null
     * when it did not): the longer of {@link #delay(int)} and the server's, but never longer than {@code max}.
     */
    public Duration delay(int failures, Duration retryAfter) {
        Duration d = delay(failures);
        if (retryAfter == null || retryAfter.compareTo(d) <= 0) {
            return d;
        }
        return retryAfter.compareTo(max) > 0 ? max : retryAfter;
    }

    /**
     * A server's {@code Retry-After} header (RFC 9110: whole seconds, or an HTTP date) as a wait from {@code now};
     * null when there is none or it cannot be read (the back-off alone then decides), zero for a date already past.
     */
    public static Duration retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String v = header.trim();
        try {
            if (v.chars().allMatch(Character::isDigit)) {
                return v.length() > 12 ? null : Duration.ofSeconds(Long.parseLong(v));
            }
            Duration d = Duration.between(
                    now,
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }

    /** {@link #delay(int)} in whole milliseconds. */
    public long delayMillis(int failures) {
        return delay(failures).toMillis();
    }

    /** The pause after one more failure than {@code failures}: for loops that count attempts from zero. */
    public Duration next(int failures) {
        return delay(failures + 1);
    }

    /** The longest pause. */
    public Duration max() {
        return max;
    }

    /** The first pause. */
    public Duration initial() {
        return initial;
    }

    /** The pause before jitter: {@code initial × multiplier^(failures−1)}, at most {@code max}. */
    private long ceilingNanos(int failures) {
        long maxNanos = nanos(max);
        double d = nanos(initial) * Math.pow(multiplier, Math.max(0, failures - 1));
        return d >= maxNanos || Double.isNaN(d) ? maxNanos : (long) d;
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public String toString() {
        return "Backoff[" + initial + " × " + multiplier + "^n, at most " + max
                + (jitter > 0 ? ", jitter " + jitter : "") + "]";
    }
}
