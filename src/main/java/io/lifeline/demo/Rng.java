package io.lifeline.demo;

import java.util.List;
import java.util.SplittableRandom;

/** The simulator's one seeded random stream, with the draws it needs. Used by one thread. */
final class Rng {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final SplittableRandom random;

    Rng(long seed) {
        this.random = new SplittableRandom(seed);
    }

    double uniform(double from, double to) {
        return from + random.nextDouble() * (to - from);
    }

    /** {@code value} moved by up to {@code fraction} of itself either way. */
    double jitter(double value, double fraction) {
        return value * (1 + uniform(-fraction, fraction));
    }

    /** Gaussian noise of the given standard deviation. */
    double noise(double sd) {
        // Sum of uniforms: close to normal, cheaper than Box-Muller, and bounded (no absurd outliers).
        return (random.nextDouble() + random.nextDouble() + random.nextDouble() - 1.5) * 2 * sd;
    }

    /** Milliseconds to the next event of a Poisson process with this rate per hour; Long.MAX_VALUE if none. */
    long exponentialMillis(double perHour) {
        if (perHour <= 0) {
            return Long.MAX_VALUE;
        }
        double hours = -Math.log(1 - random.nextDouble()) / perHour;
        return Math.max(1, (long) (hours * 3_600_000));
    }

    /** Milliseconds between {@code fromSeconds} and {@code toSeconds}. */
    long millisBetween(double fromSeconds, double toSeconds) {
        return Math.round(uniform(fromSeconds, toSeconds) * 1000);
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    boolean chance(double p) {
        return p > 0 && random.nextDouble() < p;
    }

    <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }

    String hex(int chars) {
        char[] c = new char[chars];
        for (int i = 0; i < chars; i++) {
            c[i] = HEX[random.nextInt(16)];
        }
        return new String(c);
    }

    /** A GPU UUID as the driver prints it. */
    String gpuUuid() {
        return "GPU-" + hex(8) + "-" + hex(4) + "-" + hex(4) + "-" + hex(4) + "-" + hex(12);
    }
}
