package io.lifeline.domain.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.TestScenarios;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link Fleet#gpuPage} answers exactly what paging the sorted list of every GPU's view answers. */
class FleetGpuPageTest {

    private static Fleet fleet;

    @BeforeAll
    static void fleet() {
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(40, 6), TestScenarios.START);
        List<Event> events = sim.advanceTo(TestScenarios.START.plusSeconds(1800));
        fleet = new Fleet(Clock.fixed(TestScenarios.START.plusSeconds(1800), ZoneOffset.UTC));
        events.forEach(fleet::apply);
    }

    @Test
    void everyPageOfEveryFilterIsTheSortedListsPage() {
        List<GpuView> all = fleet.gpus();
        assertThat(all).hasSizeGreaterThan(300);
        String someNode = all.get(all.size() / 2).node();
        List<Predicate<String>> nodeFilters =
                List.of(n -> true, someNode::equals, n -> n.hashCode() % 3 == 0, n -> false);
        for (Predicate<String> node : nodeFilters) {
            for (GpuHealth health :
                    new GpuHealth[] {null, GpuHealth.HEALTHY, GpuHealth.values()[GpuHealth.values().length - 1]}) {
                List<GpuView> expected = all.stream()
                        .filter(g -> node.test(g.node()))
                        .filter(g -> health == null || g.health() == health)
                        .toList();
                for (int offset : new int[] {0, 1, 7, 8, 9, 150, expected.size() - 1, expected.size(), 10_000}) {
                    for (int limit : new int[] {1, 8, 100, 1000}) {
                        Fleet.GpuPage page = fleet.gpuPage(node, health, Math.max(0, offset), limit);
                        int from = Math.min(Math.max(0, offset), expected.size());
                        assertThat(page.total()).isEqualTo(expected.size());
                        assertThat(page.items())
                                .as("offset %d limit %d health %s", offset, limit, health)
                                .isEqualTo(expected.subList(from, Math.min(expected.size(), from + limit)));
                    }
                }
            }
        }
    }
}
