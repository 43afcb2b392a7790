package io.lifeline.domain.job.membership;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.Participant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A membership keeps the view it last gave until something the view shows changes, a late round's place in the
 * history included: what it gives is always what a membership that never gave one would give after the same changes.
 */
class MembershipViewTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void theSameViewIsGivenWhileNothingChanged() {
        Membership m = new Membership(8, 16);
        m.record(round(2, 60, "n1", "n2"));
        MembershipView first = m.view("ml/llm");
        assertThat(m.view("ml/llm")).isSameAs(first);
        assertThat(m.record(round(1, 30, "n3"))).as("a late round").isFalse();
        MembershipView after = m.view("ml/llm");
        assertThat(after.rounds()).hasSize(2);
        assertThat(after.placement()).isEqualTo(first.placement());
        assertThat(m.worldSize()).isEqualTo(16);
        m.markLost("n2", T0.plusSeconds(90));
        assertThat(m.worldSize()).isEqualTo(8);
        assertThat(m.view("ml/llm").lostNodes()).containsExactly("n2");
    }

    @Test
    void aViewGivenAfterAnyChangesIsTheOneTakenAfreshAfterThem() {
        Random random = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            List<Consumer<Membership>> done = new ArrayList<>();
            Membership asked = new Membership(4, 6);
            for (int i = 0; i < 30; i++) {
                Consumer<Membership> op = randomChange(random, i);
                op.accept(asked);
                done.add(op);
                if (random.nextInt(3) == 0) {
                    continue;
                }
                Membership fresh = new Membership(4, 6);
                done.forEach(o -> o.accept(fresh));
                assertThat(asked.view("ml/llm"))
                        .as("trial %d after change %d", trial, i)
                        .isEqualTo(fresh.view("ml/llm"));
                assertThat(asked.worldSize()).isEqualTo(fresh.worldSize());
            }
        }
    }

    private static Consumer<Membership> randomChange(Random random, int i) {
        int seconds = 10 * i + (random.nextInt(4) == 0 ? -25 : 0); // now and then a round that arrives late
        String a = "n" + random.nextInt(4);
        String b = "n" + (4 + random.nextInt(4));
        String gone = random.nextBoolean() ? a : b;
        return switch (random.nextInt(4)) {
            case 0, 1 -> m -> m.record(round(i, seconds, a, b));
            case 2 -> m -> m.markLost(gone, T0.plusSeconds(seconds));
            default -> m -> m.release(T0.plusSeconds(seconds));
        };
    }

    private static RendezvousRound round(int n, int seconds, String... nodes) {
        List<Participant> ps = new ArrayList<>();
        for (int k = 0; k < nodes.length; k++) {
            ps.add(new Participant(nodes[k], 8 * k, 8));
        }
        return new RendezvousRound("run-1", n, 8 * nodes.length, T0.plusSeconds(seconds), ps, null);
    }
}
