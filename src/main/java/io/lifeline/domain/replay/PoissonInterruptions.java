package io.lifeline.domain.replay;

import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A simulated job's interruptions: Poisson arrivals at rate 1/M over a window, each recovered in R. Used to hold the
 * model to the theory it rests on (docs/whatif.md) and to draw the ETTR-against-interval chart there.
 */
public final class PoissonInterruptions {

    private PoissonInterruptions() {}

    /**
     * @param start            window start
     * @param windowSeconds    window length
     * @param mtbiSeconds      M: mean time between interruptions
     * @param recoverySeconds  R: recovery of each
     * @param seed             the random seed (the same seed gives the same interruptions)
     */
    public static List<ReplayInterruption> generate(
            Instant start, double windowSeconds, double mtbiSeconds, double recoverySeconds, long seed) {
        Random random = new Random(seed);
        List<ReplayInterruption> out = new ArrayList<>();
        double t = 0;
        long r = Math.round(recoverySeconds * 1000);
        while (true) {
            t += -Math.log(1 - random.nextDouble()) * mtbiSeconds;
            if (t >= windowSeconds) {
                return out;
            }
            out.add(new ReplayInterruption(
                    start.plusMillis(Math.round(t * 1000)), r, IncidentCause.NODE_FAILURE, null, null));
        }
    }
}
