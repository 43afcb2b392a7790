package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Prices per GPU-hour for the spot-vs-on-demand verdict ({@code lifeline.spot.*}); documented in docs/configuration.md.
 * No price is built in: a verdict without the prices it needs says so.
 */
@ConfigMapping(prefix = "lifeline.spot")
public interface SpotConfig {

    /**
     * Prices by node pool (the pool label of the nodes), for example {@code lifeline.spot.price."gpu-p5".spot=4.10}
     * and {@code lifeline.spot.price."gpu-p5".on-demand=12.29}.
     */
    Map<String, Prices> price();

    /** Prices for pools without their own ({@code lifeline.spot.default-price.spot}, {@code ...on-demand}). */
    @WithName("default-price")
    Prices defaultPrice();

    /** One pool's price per GPU-hour on each capacity type, in any one currency used throughout. */
    interface Prices {

        /** Price per GPU-hour on spot capacity. */
        OptionalDouble spot();

        /** Price per GPU-hour on on-demand capacity. */
        @WithName("on-demand")
        OptionalDouble onDemand();
    }
}
