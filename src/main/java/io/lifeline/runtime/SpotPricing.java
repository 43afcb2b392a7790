package io.lifeline.runtime;

import io.lifeline.config.SpotConfig;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.spot.SpotPrices;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/** The configured prices per GPU-hour ({@code lifeline.spot.*}) as the domain reads them; the REST API and the dashboard share it. */
@ApplicationScoped
public class SpotPricing {

    private final SpotPrices prices;

    SpotPricing(SpotConfig config) {
        Map<String, Map<CapacityType, Double>> byPool = new HashMap<>();
        config.price().forEach((pool, p) -> byPool.put(pool, of(p)));
        this.prices = new SpotPrices(byPool, of(config.defaultPrice()));
    }

    public SpotPrices prices() {
        return prices;
    }

    private static Map<CapacityType, Double> of(SpotConfig.Prices p) {
        Map<CapacityType, Double> m = new EnumMap<>(CapacityType.class);
        put(m, CapacityType.SPOT, p.spot());
        put(m, CapacityType.ON_DEMAND, p.onDemand());
        return m;
    }

    private static void put(Map<CapacityType, Double> m, CapacityType type, OptionalDouble price) {
        if (price.isPresent()) {
            if (!(price.getAsDouble() >= 0) || Double.isInfinite(price.getAsDouble())) {
                throw new IllegalArgumentException(
                        "lifeline.spot: a price per GPU-hour must be a finite number >= 0, got " + price.getAsDouble());
            }
            m.put(type, price.getAsDouble());
        }
    }
}
