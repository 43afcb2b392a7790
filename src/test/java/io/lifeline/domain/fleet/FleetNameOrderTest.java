package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.sample;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.gpu.GpuView;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The name order {@link Fleet#gpuPage} and {@link Fleet#nodes} walk is kept on every add and remove: under churn
 * (registrations, terminations forgotten past the history bound, stray nodes forgotten once silent, comebacks and a
 * restore) it stays exactly the order of a sort of every node, as the reads sorted per request before.
 */
class FleetNameOrderTest {

    private final MovableClock clock = new MovableClock(at(0));

    @Test
    void pagesAndNodeListStayInNameOrderUnderChurn() {
        Fleet fleet = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofDays(7),
                8,
                5,
                Duration.ofMinutes(10)));
        Random random = new Random(20);
        for (int step = 1; step <= 4000; step++) {
            Instant t = at(step);
            clock.set(t);
            String node = "node-" + random.nextInt(120);
            switch (random.nextInt(4)) {
                case 0 -> fleet.apply(registered(node, t));
                case 1 -> fleet.apply(terminated(node, t));
                default ->
                    fleet.apply(sample(node, t, healthy(node, random.nextInt(4)).data()));
            }
            if (step % 400 == 0) {
                assertInNameOrder(fleet);
            }
        }
        Fleet restored = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofDays(7),
                8,
                5,
                Duration.ofMinutes(10)));
        restored.restore(fleet.save());
        assertInNameOrder(restored);
        assertThat(restored.gpuPage(n -> true, null, 0, 10_000)).isEqualTo(fleet.gpuPage(n -> true, null, 0, 10_000));
    }

    private static void assertInNameOrder(Fleet fleet) {
        // Fleet.gpus() sorts a view of every GPU per call: the order the index must give.
        List<GpuView> sorted = fleet.gpus();
        Fleet.GpuPage page = fleet.gpuPage(n -> true, null, 0, sorted.size() + 1);
        assertThat(page.items()).isEqualTo(sorted);
        assertThat(page.total()).isEqualTo(sorted.size());
        int from = sorted.size() / 3;
        assertThat(fleet.gpuPage(n -> true, null, from, 17).items())
                .isEqualTo(sorted.subList(from, Math.min(sorted.size(), from + 17)));
        List<NodeSummary> nodes = fleet.nodes(NodeQuery.all());
        assertThat(nodes).hasSize(fleet.size());
        assertThat(nodes).isSortedAccordingTo(Comparator.comparing(NodeSummary::name));
        Set<String> names = new TreeSet<>();
        nodes.forEach(n -> names.add(n.name()));
        assertThat(names).hasSize(fleet.size());
    }
}
