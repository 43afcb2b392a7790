package io.lifeline.domain.job.spot;

import io.lifeline.domain.support.WireEnum;
import java.util.List;

/**
 * "Spot vs on-demand" for one job: the expected cost per useful GPU-hour on each, and which is cheaper.
 *
 * @param pool          the pool whose prices were used (the job's primary pool)
 * @param spot          the cost on spot
 * @param onDemand      the cost on on-demand
 * @param observedEttr  the job's own ETTR so far (its goodput), for comparison with the model; null before it trained
 * @param cheaper       which is cheaper per useful GPU-hour
 * @param warning       set when spot costs more per useful GPU-hour than on-demand; else null
 * @param formula       the formula, as stated in docs/policies.md
 * @param notes         why something is unknown, and assumptions made
 */
public record SpotVerdict(
        String pool,
        CapacityCost spot,
        CapacityCost onDemand,
        Double observedEttr,
        Choice cheaper,
        String warning,
        String formula,
        List<String> notes) {

    public SpotVerdict {
        notes = List.copyOf(notes);
    }

    /** Which capacity type gives a useful GPU-hour for less. */
    public enum Choice implements WireEnum {
        SPOT,
        ON_DEMAND,
        EQUAL,
        UNKNOWN
    }
}
