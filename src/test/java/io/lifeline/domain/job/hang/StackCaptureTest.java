package io.lifeline.domain.job.hang;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.StackFrame;
import io.lifeline.domain.event.TrainerData.StackThread;
import io.lifeline.domain.event.TrainerData.Stacks;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ranks with the same training-thread stack form one group; the group that keeps the others waiting stands out. */
class StackCaptureTest {

    private static final Instant T = Instant.parse("2026-12-01T10:00:00Z");

    private static Stacks stacks(String request, int rank, String node, StackFrame... inner) {
        List<StackFrame> frames = new java.util.ArrayList<>(List.of(new StackFrame("train.py", 80, "main")));
        frames.addAll(List.of(inner));
        StackThread main = new StackThread("MainThread", true, false, frames);
        StackThread agent =
                new StackThread("lifeline-sender", false, true, List.of(new StackFrame("sender.py", rank, "_run")));
        return new Stacks(
                request, rank, 0, node, 100 + rank, 17L, "training", 40.0, "frames", List.of(main, agent), null);
    }

    private static final StackFrame ALL_REDUCE =
            new StackFrame("torch/distributed/distributed_c10d.py", 2501, "all_reduce");
    private static final StackFrame SLEEP = new StackFrame("train.py", 55, "load_batch");

    @Test
    void theRankOutsideTheCollectiveIsTheOddOneOutEvenWhenGroupsAreTheSameSize() {
        StackCapture c = new StackCapture();
        c.add(T, stacks("r1", 0, "a", ALL_REDUCE));
        c.add(T.plusSeconds(1), stacks("r1", 1, "b", SLEEP));

        StackCaptureView v = c.view(2);

        assertThat(v.ranksReported()).isEqualTo(2);
        assertThat(v.missingRanks()).isEmpty();
        assertThat(v.groups()).hasSize(2);
        StackCaptureView.Group odd = v.groups().stream()
                .filter(StackCaptureView.Group::oddOneOut)
                .findFirst()
                .orElseThrow();
        assertThat(odd.ranks()).containsExactly(1);
        assertThat(odd.nodes()).containsExactly("b");
        assertThat(odd.inCollective()).isFalse();
        assertThat(v.groups().stream()
                        .filter(g -> !g.oddOneOut())
                        .findFirst()
                        .orElseThrow()
                        .inCollective())
                .isTrue();
    }

    @Test
    void identicalStacksGroupWhateverTheAgentsThreadsDo() {
        StackCapture c = new StackCapture();
        for (int r = 0; r < 7; r++) {
            c.add(T, stacks("r1", r, "n" + (r / 4), ALL_REDUCE));
        }
        c.add(T, stacks("r1", 7, "n1", SLEEP));

        StackCaptureView v = c.view(9);

        assertThat(v.groups()).hasSize(2);
        assertThat(v.groups().get(0).ranks()).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(v.groups().get(0).nodes()).containsExactly("n0", "n1");
        assertThat(v.groups().get(1).oddOneOut()).isTrue();
        assertThat(v.missingRanks()).containsExactly(8);
    }

    @Test
    void aNewRequestReplacesTheCaptureAndARepeatedAnswerCountsOnce() {
        StackCapture c = new StackCapture();
        c.add(T, stacks("r1", 0, "a", ALL_REDUCE));
        c.add(T, stacks("r1", 0, "a", SLEEP));
        assertThat(c.view(1).groups())
                .singleElement()
                .satisfies(g -> assertThat(g.inCollective()).isTrue());

        c.add(T.plusSeconds(60), stacks("r2", 0, "a", SLEEP));

        StackCaptureView v = c.view(1);
        assertThat(v.requestId()).isEqualTo("r2");
        assertThat(v.firstAt()).isEqualTo(T.plusSeconds(60));
        assertThat(v.groups()).singleElement().satisfies(g -> {
            assertThat(g.inCollective()).isFalse();
            assertThat(g.oddOneOut()).isFalse();
        });
    }

    @Test
    void groupsAreBoundedAndRanksBeyondThemCounted() {
        StackCapture c = new StackCapture();
        for (int r = 0; r < StackCapture.MAX_GROUPS + 5; r++) {
            c.add(T, stacks("r1", r, "n", new StackFrame("train.py", 1000 + r, "step")));
        }
        StackCaptureView v = c.view(0);
        assertThat(v.groups()).hasSize(StackCapture.MAX_GROUPS);
        assertThat(v.ranksNotGrouped()).isEqualTo(5);
    }
}
