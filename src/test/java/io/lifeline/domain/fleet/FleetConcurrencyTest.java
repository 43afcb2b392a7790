package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.gpu.GpuHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** One writer per node, several nodes' writers at once, and readers at the same time. */
class FleetConcurrencyTest {

    @Test
    void writersOfDifferentNodesAndReadersRunTogether() throws InterruptedException {
        Fleet fleet = new Fleet(new MutableClock(at(3600)));
        AtomicInteger failedSignals = new AtomicInteger();
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                for (int n = 0; n < 50; n++) {
                    String node = "w" + writer + "-n" + n;
                    fleet.apply(FleetEvents.registered(node, at(0)));
                    for (int s = 0; s < 20; s++) {
                        for (int g = 0; g < 8; g++) {
                            var sample = FleetEvents.healthy(node, g);
                            if (g == 7 && s >= 10) {
                                sample.dbe(1L);
                            }
                            failedSignals.addAndGet(fleet.apply(sample.at(at(10 + s))).size());
                        }
                    }
                }
            }));
        }
        AtomicInteger reads = new AtomicInteger();
        threads.add(new Thread(() -> {
            try {
                while (reads.incrementAndGet() < 200) {
                    fleet.nodes(NodeQuery.all());
                    fleet.gpus();
                    fleet.gpuHealthByPool();
                }
            } catch (Throwable t) {
                error.set(t);
            }
        }));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(error.get()).isNull();
        assertThat(failedSignals.get()).isEqualTo(100);
        assertThat(fleet.gpus()).hasSize(800);
        assertThat(fleet.gpuHealthByPool()).singleElement()
                .isEqualTo(new PoolGpuHealth("a100-spot", 700, 0, 100));
        assertThat(fleet.nodes(new NodeQuery(null, null, null, GpuHealth.FAILED))).hasSize(100);
    }
}
