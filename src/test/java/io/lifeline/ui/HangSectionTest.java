package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.JobData.HangSuspect;
import io.lifeline.domain.event.TrainerData.StackFrame;
import io.lifeline.domain.event.TrainerData.StackThread;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.hang.StackCaptureView;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the job page's hang section says, as text. */
class HangSectionTest {

    @Test
    void aSuspectedVerdictSaysTheStallTheSuspectsTheSilentRanksAndTheEvidence() {
        HangVerdict v = new HangVerdict(
                HangVerdict.SUSPECTED,
                "training",
                "training",
                95,
                60,
                "3 x p99 step time (20 s), floor 60 s",
                null,
                16,
                List.of(new HangSuspect(3, "gpu-7", "3", 41L, "stopped first")),
                List.of(9, 10, 11, 12),
                List.of("GPU 3 of gpu-7: utilisation 0% for 90 s"),
                "no progress for 95 s (threshold 60 s)");
        assertThat(HangSection.verdictLines(v))
                .containsExactly(
                        "no progress for 95 s (threshold 60 s)",
                        "No progress for 1 min 35 s of a threshold of 1 min (3 x p99 step time (20 s), floor 60 s);"
                                + " phase training; 16 ranks reporting",
                        "Suspect: rank 3 on gpu-7, GPU 3, at step 41: stopped first",
                        "Silent (no heartbeat any more): 9-12",
                        "Evidence: GPU 3 of gpu-7: utilisation 0% for 90 s");
    }

    @Test
    void aVerdictWithNothingToJudgeIsOneSentence() {
        assertThat(HangSection.verdictLines(HangVerdict.of(HangVerdict.UNKNOWN, "no rank has reported a heartbeat")))
                .containsExactly("no rank has reported a heartbeat");
    }

    @Test
    void ranksFoldIntoRuns() {
        assertThat(HangSection.ranks(List.of(7, 0, 1, 2, 3, 5, 6))).isEqualTo("0-3, 5-7");
        assertThat(HangSection.ranks(List.of(4))).isEqualTo("4");
        assertThat(HangSection.ranks(List.of(1, 2))).isEqualTo("1, 2");
    }

    @Test
    void aGroupIsSummarisedByItsInnermostTrainingFrameAndListsFramesInnermostLast() {
        StackThread main = new StackThread(
                "MainThread",
                true,
                false,
                List.of(
                        new StackFrame("train.py", 88, "main"),
                        new StackFrame("torch/distributed/distributed_c10d.py", 2050, "all_reduce")));
        StackThread agent = new StackThread("lifeline-agent", false, true, List.of(new StackFrame("a.py", 1, "run")));
        StackCaptureView.Group g = new StackCaptureView.Group(
                "abc",
                List.of(0, 1, 2),
                List.of("n1"),
                false,
                true,
                "frames",
                "training",
                10L,
                List.of(agent, main),
                null);
        assertThat(HangSection.groupSummary(g))
                .isEqualTo(
                        "3 ranks (0-2), waiting in a collective: torch/distributed/distributed_c10d.py:2050 in all_reduce");
        assertThat(HangSection.frames(main))
                .isEqualTo("train.py:88 in main\ntorch/distributed/distributed_c10d.py:2050 in all_reduce\n");
        StackCaptureView v = new StackCaptureView("hang-1", Instant.EPOCH, null, 3, 4, List.of(g), List.of(3), 0);
        assertThat(HangSection.stacksHeadline(v))
                .isEqualTo("Newest stacks (hang-1), 3 of 4 ranks answered; 1 distinct stack; not answered: 3");
    }
}
