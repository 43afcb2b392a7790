package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator must be cheap enough to feed load tests: 2,000 nodes of 8 GPUs and 500 jobs. */
class LoadTest {

    @Test
    void twoThousandNodesAndFiveHundredJobsRunFasterThanRealTimeByFar() {
        Scenario s = TestScenarios.large(2000, 500);
        Instant start = TestScenarios.START;
        long t0 = System.nanoTime();
        FleetSimulator sim = new FleetSimulator(s, start);
        long samples = 0;
        long total = 0;
        Duration simulated = Duration.ofMinutes(5);
        for (long sec = 10; sec <= simulated.toSeconds(); sec += 10) {
            List<Event> batch = sim.advanceTo(start.plusSeconds(sec));
            total += batch.size();
            for (Event e : batch) {
                if (e.type() == EventType.GPU_SAMPLE) {
                    samples++;
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                "load: %d events (%d samples) for %s simulated in %.2f s: %.0f events/s%n",
                total, samples, simulated, seconds, total / seconds);
        // 16,000 GPUs sampled every 10 s for 5 minutes.
        assertThat(samples).isBetween(16_000L * 29, 16_000L * 31);
        // At least ten times faster than real time, on a busy machine.
        assertThat(seconds).isLessThan(simulated.toSeconds() / 10.0);
    }
}
