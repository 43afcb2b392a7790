package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.spot.CapacityInterval;
import io.lifeline.domain.job.spot.SpotReport;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@link InterruptionRates} from the exposure the jobs model measured in a job's pools (every job's node-hours and
 * interruptions there, by capacity type), as the job's spot report carries it.
 */
public final class ExposureRates implements InterruptionRates {

    private final Map<CapacityType, Double> rates = new EnumMap<>(CapacityType.class);

    public ExposureRates(SpotReport report) {
        for (CapacityInterval ci : report.intervals()) {
            CapacityType t = CapacityType.fromWireName(ci.capacityType());
            if (t != null && ci.interruptionsPerNodeHour() != null) {
                rates.put(t, ci.interruptionsPerNodeHour());
            }
        }
    }

    @Override
    public Double perNodeHour(String pool, CapacityType capacity) {
        return rates.get(capacity);
    }
}
