package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.MovableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random, out-of-order streams (fixed seeds, so a failure reproduces): duplicates are harmless, and how the
 * streams of different nodes interleave does not matter.
 */
class FleetReplayTest {

    private static final List<String> NODES = List.of("n1", "n2", "n3");

    private static List<Event> randomStream(Random r, int length) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            String node = NODES.get(r.nextInt(NODES.size()));
            var t = at(r.nextInt(600));
            int gpu = r.nextInt(4);
            out.add(
                    switch (r.nextInt(12)) {
                        case 0 -> FleetEvents.registered(node, t);
                        case 1 -> FleetEvents.ready(node, t);
                        case 2 -> FleetEvents.notReady(node, t);
                        case 3 -> FleetEvents.cordoned(node, t);
                        case 4 -> FleetEvents.uncordoned(node, t);
                        case 5 ->
                            FleetEvents.notice(node, t, NoticeKind.values()[r.nextInt(4)], at(600 + r.nextInt(2) * 60));
                        case 6 -> FleetEvents.terminated(node, t);
                        case 7 -> FleetEvents.xid(node, t, gpu, new int[] {13, 31, 48, 79, 94, 4242}[r.nextInt(6)]);
                        case 8 ->
                            FleetEvents.healthy(node, gpu)
                                    .dbe((long) r.nextInt(2))
                                    .at(t);
                        case 9 ->
                            FleetEvents.healthy(node, gpu)
                                    .temp(60.0 + r.nextInt(40))
                                    .at(t);
                        case 10 ->
                            FleetEvents.healthy(node, gpu)
                                    .lastXid(r.nextInt(3) == 0 ? 0 : 79)
                                    .at(t);
                        default -> FleetEvents.healthy(node, gpu).noData().at(t);
                    });
        }
        return out;
    }

    private static Fleet fleet() {
        return new Fleet(new MovableClock(at(3600)));
    }

    private static List<NodeDetail> details(Fleet f) {
        List<NodeDetail> out = new ArrayList<>();
        for (NodeSummary s : f.nodes(NodeQuery.all())) {
            out.add(f.node(s.name()).orElseThrow());
        }
        return out;
    }

    @Test
    void applyingEveryEventTwiceGivesTheSameSignalsAndState() {
        for (int seed = 0; seed < 150; seed++) {
            List<Event> stream = randomStream(new Random(seed), 60);
            Fleet once = fleet();
            Fleet twice = fleet();
            List<NodeSignal> signalsOnce = new ArrayList<>();
            List<NodeSignal> signalsTwice = new ArrayList<>();
            List<NodeSignal> fromRepeats = new ArrayList<>();
            for (Event e : stream) {
                signalsOnce.addAll(once.apply(e));
                signalsTwice.addAll(twice.apply(e));
                fromRepeats.addAll(twice.apply(e));
            }
            assertThat(fromRepeats)
                    .as("seed %d: signals from repeated events", seed)
                    .isEmpty();
            assertThat(signalsTwice).as("seed %d", seed).isEqualTo(signalsOnce);
            assertThat(details(twice)).as("seed %d", seed).isEqualTo(details(once));
        }
    }

    @Test
    void interleavingOfDifferentNodesDoesNotMatter() {
        for (int seed = 0; seed < 150; seed++) {
            List<Event> stream = randomStream(new Random(seed), 60);
            Fleet inOrder = fleet();
            stream.forEach(inOrder::apply);
            Fleet nodeByNode = fleet();
            for (String node : NODES) {
                stream.stream().filter(e -> e.subject().equals(node)).forEach(nodeByNode::apply);
            }
            assertThat(details(nodeByNode)).as("seed %d", seed).isEqualTo(details(inOrder));
        }
    }
}
