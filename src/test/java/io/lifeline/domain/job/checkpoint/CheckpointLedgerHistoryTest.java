package io.lifeline.domain.job.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.CheckpointCompleted;
import io.lifeline.domain.event.TrainerData.CheckpointFailed;
import io.lifeline.domain.event.TrainerData.CheckpointStarted;
import io.lifeline.domain.event.TrainerData.CheckpointVerified;
import io.lifeline.domain.event.TrainerData.Restored;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The ledger keeps the history it last gave until something it shows changes: what it gives must always be what a
 * ledger that never gave one would give after the same changes.
 */
class CheckpointLedgerHistoryTest {

    private static final int MAX_CHECKPOINTS = 5;
    private static final int MAX_RESTORES = 3;
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void theSameHistoryIsGivenWhileNothingChanged() {
        CheckpointLedger l = new CheckpointLedger(MAX_CHECKPOINTS, MAX_RESTORES);
        l.completed(completed("c1", 10), T0, object());
        CheckpointHistory first = l.history("ml/llm");
        assertThat(l.history("ml/llm")).isSameAs(first);
        l.beginEpoch(ProductiveMark.ZERO);
        assertThat(l.history("ml/llm"))
                .as("an epoch is not part of the history")
                .isSameAs(first);
        l.verified(new CheckpointVerified("c1", true, "sum"), T0.plusSeconds(1));
        assertThat(l.history("ml/llm")).isNotSameAs(first).isNotEqualTo(first);
    }

    @Test
    void aHistoryGivenAfterAnyChangesIsTheOneTakenAfreshAfterThem() {
        Random random = new Random(20);
        for (int trial = 0; trial < 50; trial++) {
            List<Consumer<CheckpointLedger>> done = new ArrayList<>();
            CheckpointLedger asked = new CheckpointLedger(MAX_CHECKPOINTS, MAX_RESTORES);
            for (int i = 0; i < 40; i++) {
                Consumer<CheckpointLedger> op = randomChange(random, i);
                op.accept(asked);
                done.add(op);
                if (random.nextInt(3) == 0) {
                    continue; // changes in a row with no history asked between them
                }
                CheckpointLedger fresh = new CheckpointLedger(MAX_CHECKPOINTS, MAX_RESTORES);
                done.forEach(o -> o.accept(fresh));
                assertThat(asked.history("ml/llm"))
                        .as("trial %d after change %d", trial, i)
                        .isEqualTo(fresh.history("ml/llm"));
            }
        }
    }

    private static Consumer<CheckpointLedger> randomChange(Random random, int i) {
        String id = "c" + random.nextInt(8);
        long step = 100L * i;
        Instant at = T0.plusSeconds(i);
        return switch (random.nextInt(8)) {
            case 0 -> l -> l.started(new CheckpointStarted(id, step, false), at, new ProductiveMark(step, step * 8));
            case 1, 2 -> {
                CheckpointStorage.Placement placed = random(random);
                yield l -> l.completed(completed(id, step), at, placed);
            }
            case 3 -> l -> l.failed(new CheckpointFailed(id, step, "disk full"), at);
            case 4 -> {
                boolean ok = random.nextBoolean();
                yield l -> l.verified(new CheckpointVerified(id, ok, "sum-" + id), at);
            }
            case 5 -> l -> l.restored(new Restored(id, step, "run-" + i), at, "inc-" + i);
            case 6 ->
                l -> {
                    CheckpointEntry e = l.find(id);
                    if (e != null) {
                        l.capture(e, new ProductiveMark(step, step));
                    }
                };
            default -> l -> l.beginEpoch(new ProductiveMark(step, step));
        };
    }

    private static CheckpointStorage.Placement random(Random random) {
        return random.nextBoolean()
                ? object()
                : new CheckpointStorage.Placement(Durability.NODE_LOCAL, List.of("node-" + random.nextInt(3)));
    }

    private static CheckpointStorage.Placement object() {
        return new CheckpointStorage.Placement(Durability.OBJECT_STORAGE, List.of());
    }

    private static CheckpointCompleted completed(String id, long step) {
        return new CheckpointCompleted(id, step, 1024L, 30.0, 5.0, "s3://ckpt/" + id, null, 8, false, 16, List.of());
    }
}
