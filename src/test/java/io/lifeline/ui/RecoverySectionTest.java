package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.Component;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.WorkerFailure;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the job page's Recovery section says: the budgets, the advice in each verdict, the attempts, and nothing yet. */
class RecoverySectionTest {

    private static final Instant AT = Instant.parse("2026-03-01T10:40:00Z");
    private static final Attempt LAUNCH = new Attempt(
            1,
            AT,
            AT.plusSeconds(600),
            null,
            null,
            "inc-1",
            IncidentCause.GPU_FAULT,
            "XID 79",
            List.of("gpu-7"),
            List.of(
                    WorkerFailure.of(
                            AT.plusSeconds(600), 3, "gpu-7", 1, "RuntimeError: CUDA error: " + "x".repeat(120), 41L),
                    WorkerFailure.of(AT.plusSeconds(601), 4, "gpu-7", -9, null, 41L)),
            0L,
            41L,
            41L,
            null,
            40L,
            true,
            null);
    private static final Attempt RUNNING = new Attempt(
            2,
            AT.plusSeconds(700),
            null,
            "inc-1",
            IncidentCause.GPU_FAULT,
            null,
            null,
            null,
            List.of("gpu-8"),
            List.of(),
            40L,
            55L,
            15L,
            40L,
            40L,
            false,
            null);

    private static Advice advice(Verdict v, String mode, String outcome) {
        return new Advice(
                "ml/llama",
                "inc-1",
                2,
                Remedy.RESTART_EXCLUDING_NODE,
                "gpu-7",
                RecoveryRules.FAILING_NODE,
                RecoveryRules.VERSION,
                List.of("ranks 3, 4 of gpu-7 failed", "XID 79 on gpu-7"),
                "training resumes without gpu-7",
                AT.plusSeconds(605),
                AT.plusSeconds(905),
                mode,
                v,
                outcome,
                v == Verdict.PENDING ? null : AT.plusSeconds(700));
    }

    private static RecoveryView view(String mode, Budgets b, List<Advice> advice, List<Attempt> attempts) {
        return new RecoveryView(
                "ml/llama",
                mode,
                RecoveryRules.VERSION,
                RecoveryRules.defaults().table(),
                b,
                advice.isEmpty() ? null : advice.get(advice.size() - 1),
                advice,
                attempts);
    }

    private static String text(Component c) {
        return c.getElement().getTextRecursively();
    }

    @Test
    void theTwoBudgetsStandSideBySideAndASpentOneIsMarked() {
        assertThat(RecoverySection.budgetLines(new Budgets(2, 3, 5, null)))
                .containsExactly("Failures 2 / 3", "With notice or by plan 5 / no limit");
        Budgets spent = new Budgets(4, 3, 1, 10);
        assertThat(spent.failuresSpent()).isTrue();
        assertThat(RecoverySection.budgetLines(spent))
                .containsExactly("Failures 4 / 3 (spent)", "With notice or by plan 1 / 10");
        RecoverySection section = new RecoverySection();
        section.show(view("on", spent, List.of(advice(Verdict.PENDING, "on", null)), List.of(LAUNCH, RUNNING)));
        Component failures = card(section, "job-recovery-failures");
        assertThat(failures.getElement().getClassList()).contains("ll-spent");
        assertThat(text(failures)).contains("Failures", "4 / 3", "Budget spent");
        Component planned = card(section, "job-recovery-planned");
        assertThat(planned.getElement().getClassList()).doesNotContain("ll-spent");
        assertThat(text(planned)).contains("With notice or by plan", "1 / 10").doesNotContain("spent");
    }

    @Test
    void pendingAdviceSaysWhatItDoesWhyWhatItExpectsByWhenAndItsEvidence() {
        Advice a = advice(Verdict.PENDING, "on", null);
        assertThat(RecoverySection.verdictText(Verdict.PENDING)).isEqualTo("Pending");
        assertThat(RecoverySection.verdictTheme(Verdict.PENDING)).isEqualTo("contrast");
        assertThat(RecoverySection.adviceLines(a))
                .containsExactly(
                        "Restart excluding node (node gpu-7) for incident inc-1",
                        "Rule: failing-node (rules version 2), rung 2, decided 2026-03-01 10:50:05",
                        "Expected: training resumes without gpu-7, by 2026-03-01 10:55:05",
                        "Outcome: not checked yet",
                        "Evidence: ranks 3, 4 of gpu-7 failed",
                        "Evidence: XID 79 on gpu-7");
        RecoverySection section = new RecoverySection();
        section.show(view("on", new Budgets(1, 3, 0, null), List.of(a), List.of(LAUNCH, RUNNING)));
        assertThat(text(section))
                .contains("Pending", "Restart excluding node (node gpu-7)", "Evidence: XID 79 on gpu-7")
                .contains("Ladder on", "remedies are decided, recorded and carried out")
                .doesNotContain("No attempts or advice yet");
    }

    @Test
    void verifiedAdviceSaysWhatTheCheckSaw() {
        Advice a = advice(Verdict.VERIFIED, "on", "training resumed at step 42 without gpu-7");
        assertThat(RecoverySection.verdictText(Verdict.VERIFIED)).isEqualTo("Verified");
        assertThat(RecoverySection.verdictTheme(Verdict.VERIFIED)).isEqualTo("success");
        assertThat(RecoverySection.adviceLines(a))
                .contains("Outcome: training resumed at step 42 without gpu-7 (checked 2026-03-01 10:51:40)");
        RecoverySection section = new RecoverySection();
        section.show(view("on", new Budgets(1, 3, 0, null), List.of(a), List.of(LAUNCH, RUNNING)));
        assertThat(text(section)).contains("Verified", "training resumed at step 42");
    }

    @Test
    void failedAdviceIsMarkedAndSaysWhy() {
        Advice a = advice(Verdict.FAILED, "on", "no progress by the deadline");
        assertThat(RecoverySection.verdictText(Verdict.FAILED)).isEqualTo("! Failed");
        assertThat(RecoverySection.verdictTheme(Verdict.FAILED)).isEqualTo("error");
        assertThat(RecoverySection.adviceLines(a))
                .contains("Outcome: no progress by the deadline (checked 2026-03-01 10:51:40)");
        RecoverySection section = new RecoverySection();
        section.show(view("on", new Budgets(1, 3, 0, null), List.of(a), List.of(LAUNCH, RUNNING)));
        assertThat(text(section)).contains("! Failed", "no progress by the deadline");
    }

    @Test
    void inADryRunTheAdviceIsRecordedOnlyAndNothingIsDone() {
        Advice a = advice(Verdict.PENDING, "dry-run", null);
        assertThat(RecoverySection.adviceLines(a).get(0))
                .isEqualTo("Restart excluding node (node gpu-7) for incident inc-1: recorded only, nothing done");
        assertThat(RecoverySection.modeLine("dry-run")).isEqualTo("recorded only, nothing done");
        assertThat(RecoverySection.modeLine("off")).isEqualTo("no remedy is decided");
        RecoverySection section = new RecoverySection();
        section.show(view("dry-run", new Budgets(1, 3, 0, null), List.of(a), List.of(LAUNCH, RUNNING)));
        assertThat(text(section)).contains("Ladder dry-run", "recorded only, nothing done");
    }

    @Test
    void aJobThatHealsItselfSaysWhatTheLadderLeavesToIt() {
        JobData.SelfHealing torchft =
                new JobData.SelfHealing(JobData.SelfHealing.TORCHFT, "http://lighthouse.ml.svc:29510");
        assertThat(RecoverySection.healerLine(torchft))
                .isEqualTo(
                        "TorchFT (Lighthouse http://lighthouse.ml.svc:29510): a replica failure is left to it, no pod"
                                + " is restarted or replaced; a job that fails the same way again and again, or saves no"
                                + " checkpoint, is still stopped");
        assertThat(RecoverySection.healerLine(new JobData.SelfHealing(JobData.SelfHealing.TORCHFT, null)))
                .startsWith("TorchFT: a replica failure is left to it");
        RecoverySection section = new RecoverySection();
        RecoveryView v = view("on", new Budgets(1, 3, 0, null), List.of(), List.of(LAUNCH, RUNNING));
        section.show(v);
        assertThat(text(section)).doesNotContain("Heals itself");
        section.show(v, torchft);
        assertThat(text(card(section, "job-recovery-heals-itself")))
                .contains("Heals itself", "Lighthouse http://lighthouse.ml.svc:29510", "no pod is restarted");
    }

    @Test
    void theAttemptsTableSaysHowEachEndedAndItsFirstFailureShortened() {
        assertThat(RecoverySection.endedBy(LAUNCH)).isEqualTo("gpu fault (inc-1)");
        assertThat(RecoverySection.endedBy(RUNNING)).isEqualTo("running");
        String first = RecoverySection.firstFailure(LAUNCH);
        assertThat(first)
                .startsWith("RuntimeError: CUDA error: xxx")
                .contains("…")
                .endsWith(" on rank 3 of node gpu-7 (1 more)");
        assertThat(first.substring(0, first.indexOf(" on rank"))).hasSize(RecoverySection.MAX_FAILURE_CHARS);
        assertThat(RecoverySection.firstFailure(RUNNING)).isEqualTo("—");
        Attempt killed = new Attempt(
                3,
                AT,
                AT,
                null,
                null,
                "inc-2",
                IncidentCause.NODE_FAILURE,
                null,
                List.of(),
                List.of(WorkerFailure.of(AT, 0, null, -9, null, null)),
                null,
                null,
                null,
                null,
                null,
                false,
                null);
        assertThat(RecoverySection.firstFailure(killed)).isEqualTo("SIGKILL on rank 0");
    }

    @Test
    void aNewJobShowsItsBudgetsAndAQuietNothingYet() {
        RecoverySection section = new RecoverySection();
        section.show(null);
        assertThat(text(section)).contains("No attempts or advice yet.");
        Attempt launch = new Attempt(
                1,
                AT,
                null,
                null,
                null,
                null,
                null,
                null,
                List.of("n1"),
                List.of(),
                0L,
                5L,
                5L,
                null,
                null,
                false,
                null);
        RecoveryView fresh = view("off", new Budgets(0, 3, 0, null), List.of(), List.of(launch));
        assertThat(RecoverySection.isQuiet(fresh)).isTrue();
        section.show(fresh);
        assertThat(text(section))
                .contains("Failures", "0 / 3", "No attempts or advice yet")
                .contains("Ladder off", "no remedy is decided")
                .doesNotContain("Budget spent");
        assertThat(card(section, "job-recovery-attempts").isVisible()).isFalse();
        // The first interruption ends the quiet: its attempt and the next appear in the table.
        section.show(view("off", new Budgets(1, 3, 0, null), List.of(), List.of(LAUNCH, RUNNING)));
        assertThat(card(section, "job-recovery-attempts").isVisible()).isTrue();
        assertThat(text(section)).contains("No advice yet").doesNotContain("No attempts or advice yet");
    }

    @Test
    void theRestartsCardCountsFailuresAgainstTheBudget() {
        RecoveryView r = view("on", new Budgets(2, 3, 5, null), List.of(), List.of(LAUNCH, RUNNING));
        assertThat(JobDetailView.restartsHint(summary(3, false), r)).isEqualTo("2 failures of a budget of 3");
        assertThat(JobDetailView.restartsHint(summary(3, true), r)).endsWith(" · SPENT");
        assertThat(JobDetailView.restartsHint(summary(null, false), r)).isEqualTo("7 interruptions");
    }

    private static JobSummary summary(Integer maxRestarts, boolean exhausted) {
        return new JobSummary(
                "ml/llama",
                "ml",
                JobState.RUNNING,
                AT,
                8,
                8,
                1,
                7,
                maxRestarts,
                exhausted,
                55L,
                AT,
                null,
                false,
                null,
                null,
                null,
                7,
                "p",
                "spot",
                AT,
                null,
                false);
    }

    private static Component card(RecoverySection section, String id) {
        return section.getChildren()
                .flatMap(c -> java.util.stream.Stream.concat(java.util.stream.Stream.of(c), c.getChildren()))
                .filter(c -> c.getId().filter(id::equals).isPresent())
                .findFirst()
                .orElseThrow();
    }
}
