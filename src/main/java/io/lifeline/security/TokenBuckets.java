package io.lifeline.security;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token-bucket rate limits, one bucket per key (token id and kind of request). A bucket holds up to {@code burst}
 * permits and refills at {@code perSecond}. Time is passed in (nanoseconds from any fixed origin) so tests can
 * drive it. Bounded: past {@code maxKeys}, buckets that are full again (idle callers) are dropped first.
 */
public final class TokenBuckets {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final double perSecond;
    private final double burst;
    private final int maxKeys;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public TokenBuckets(double perSecond, int burst, int maxKeys) {
        if (perSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("rate limit: per-second must be > 0 and burst >= 1");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.maxKeys = maxKeys;
    }

    /**
     * Takes one permit for {@code key}. Returns 0 when granted, otherwise how many nanoseconds until one permit
     * will be available.
     */
    public long tryAcquire(String key, long nowNanos) {
        Bucket b = buckets.get(key);
        if (b == null) {
            if (buckets.size() >= maxKeys) {
                evictIdle(nowNanos);
            }
            b = buckets.computeIfAbsent(key, k -> new Bucket(burst, nowNanos));
        }
        return b.take(nowNanos);
    }

    /**
     * How many nanoseconds until {@code key} has a permit, without taking one: 0 when one is there now (or the key
     * has no bucket yet, which starts full).
     */
    public long waitFor(String key, long nowNanos) {
        Bucket b = buckets.get(key);
        return b == null ? 0 : b.waitFor(nowNanos);
    }

    /** Whole seconds to tell a client in {@code Retry-After} for a wait of {@code nanos} (at least 1). */
    public static long retryAfterSeconds(long nanos) {
        return Math.max(1, (nanos + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND);
    }

    int size() {
        return buckets.size();
    }

    private void evictIdle(long nowNanos) {
        buckets.values().removeIf(b -> b.fullAt(nowNanos));
        Iterator<String> it = buckets.keySet().iterator();
        while (buckets.size() >= maxKeys && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    private final class Bucket {
        private double permits;
        private long lastNanos;

        Bucket(double permits, long nowNanos) {
            this.permits = permits;
            this.lastNanos = nowNanos;
        }

        synchronized long take(long nowNanos) {
            refill(nowNanos);
            if (permits >= 1) {
                permits -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - permits) / perSecond * NANOS_PER_SECOND);
        }

        synchronized long waitFor(long nowNanos) {
            refill(nowNanos);
            return permits >= 1 ? 0 : (long) Math.ceil((1 - permits) / perSecond * NANOS_PER_SECOND);
        }

        synchronized boolean fullAt(long nowNanos) {
            refill(nowNanos);
            return permits >= burst;
        }

        private void refill(long nowNanos) {
            long elapsed = nowNanos - lastNanos;
            if (elapsed > 0) {
                permits = Math.min(burst, permits + elapsed * perSecond / NANOS_PER_SECOND);
                lastNanos = nowNanos;
            }
        }
    }
}
