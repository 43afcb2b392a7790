package io.lifeline.domain.job.spot;

import io.lifeline.domain.event.CapacityType;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Prices per GPU-hour by pool and capacity type, with a price per capacity type for pools that have none of their
 * own. Immutable; the configuration builds it ({@code lifeline.spot.price.*}).
 */
public final class SpotPrices {

    /** No price known anywhere: every verdict says so. */
    public static final SpotPrices NONE = new SpotPrices(Map.of(), Map.of());

    private final Map<String, Map<CapacityType, Double>> byPool;
    private final Map<CapacityType, Double> fallback;

    /**
     * @param byPool    price per GPU-hour by pool, then capacity type
     * @param fallback  price per GPU-hour by capacity type, for pools without their own
     */
    public SpotPrices(Map<String, Map<CapacityType, Double>> byPool, Map<CapacityType, Double> fallback) {
        Map<String, Map<CapacityType, Double>> copy = new HashMap<>();
        byPool.forEach((pool, prices) -> copy.put(pool, copyOf(prices)));
        this.byPool = Map.copyOf(copy);
        this.fallback = copyOf(fallback);
    }

    /**
     * The price per GPU-hour of {@code type} in {@code pool}: the pool's own, else the fallback, else null (also when
     * the capacity type is not known, as for a job of a public trace).
     */
    public Double price(String pool, CapacityType type) {
        if (type == null) {
            return null;
        }
        Map<CapacityType, Double> own = pool == null ? null : byPool.get(pool);
        if (own != null && own.get(type) != null) {
            return own.get(type);
        }
        return fallback.get(type);
    }

    private static Map<CapacityType, Double> copyOf(Map<CapacityType, Double> prices) {
        Map<CapacityType, Double> m = new EnumMap<>(CapacityType.class);
        prices.forEach((k, v) -> {
            if (k != null && v != null) {
                m.put(k, v);
            }
        });
        return Map.copyOf(m);
    }
}
