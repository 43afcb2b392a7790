package io.lifeline.ui;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.incident.WorkerFailure;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.job.recovery.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The job page's "Recovery" section: the two restart budgets side by side (failures, and interruptions with notice or
 * by plan, which never use up the first), the recovery ladder's mode, the newest advice (its remedy, the rule that
 * chose it, where it stands against its expected state and deadline, and the evidence it rests on), and the attempts
 * in a compact table, newest first. The same facts as {@code GET .../recovery}.
 */
final class RecoverySection extends Div {

    /** Longest first failure shown in the attempts table; the rest of the line is in the incident. */
    static final int MAX_FAILURE_CHARS = 80;

    private final Div budgets = new Div();
    private final Div mode = new Div();
    private final Div advice = new Div();
    private final Div quiet = new Div();
    private final Grid<Attempt> attempts = new Grid<>();
    private Head shownHead;
    private List<Attempt> shownAttempts;

    /** What the part above the table was last drawn from, so that a job making progress redraws only the table. */
    private record Head(
            boolean known, String mode, Budgets budgets, Advice current, boolean quiet, JobData.SelfHealing healer) {}

    RecoverySection() {
        setId("job-recovery");
        budgets.setId("job-recovery-budgets");
        budgets.addClassNames("ll-kpis");
        mode.setId("job-recovery-mode");
        advice.setId("job-recovery-advice");
        quiet.setId("job-recovery-empty");
        attempts.setId("job-recovery-attempts");
        attempts.addThemeVariants(GridVariant.LUMO_COMPACT);
        attempts.setAllRowsVisible(true);
        attempts.addColumn(Attempt::number).setHeader("Attempt").setAutoWidth(true);
        attempts.addColumn(a -> Format.shortTime(a.startedAt(), UiSession.zone()))
                .setHeader("Started")
                .setAutoWidth(true);
        attempts.addColumn(RecoverySection::endedBy).setHeader("Ended by").setAutoWidth(true);
        attempts.addColumn(a -> Format.text(a.stepsMade())).setHeader("Steps made");
        attempts.addColumn(RecoverySection::checkpoint).setHeader("Checkpoint advanced");
        attempts.addColumn(RecoverySection::firstFailure)
                .setHeader("First failure")
                .setFlexGrow(1);
        attempts.setEmptyStateText("No attempts yet.");
        add(budgets, mode, advice, quiet, attempts);
    }

    /** Shows {@code v}, or that nothing is known yet when null; draws again only what changed. */
    void show(RecoveryView v) {
        show(v, null);
    }

    /**
     * As {@link #show(RecoveryView)}, for a job that heals its own replica failures ({@code healer}, or null): the mode
     * line then says what the ladder leaves to the job.
     */
    void show(RecoveryView v, JobData.SelfHealing healer) {
        boolean isQuiet = v == null || isQuiet(v);
        Head head = v == null
                ? new Head(false, null, null, null, true, healer)
                : new Head(true, v.mode(), v.budgets(), v.current(), isQuiet, healer);
        if (!head.equals(shownHead)) {
            shownHead = head;
            renderHead(v, isQuiet, healer);
        }
        List<Attempt> rows = v == null || isQuiet ? List.of() : v.attempts();
        if (!rows.equals(shownAttempts)) {
            shownAttempts = rows;
            List<Attempt> newestFirst = new ArrayList<>(rows);
            Collections.reverse(newestFirst);
            attempts.setItems(newestFirst);
        }
        attempts.setVisible(!isQuiet);
    }

    /** A job that was never interrupted and has no advice: one attempt (its launch) still running, or none. */
    static boolean isQuiet(RecoveryView v) {
        return v.advice().isEmpty() && v.attempts().stream().allMatch(Attempt::running);
    }

    private void renderHead(RecoveryView v, boolean isQuiet, JobData.SelfHealing healer) {
        budgets.removeAll();
        mode.removeAll();
        advice.removeAll();
        quiet.removeAll();
        if (v == null) {
            quiet.add(Ui.empty("No attempts or advice yet."));
            return;
        }
        Budgets b = v.budgets();
        budgets.add(
                budget(
                        "job-recovery-failures",
                        "Failures",
                        b.failures(),
                        b.failureBudget(),
                        b.failuresSpent(),
                        "software, node, GPU, hang or unexplained"),
                budget(
                        "job-recovery-planned",
                        "With notice or by plan",
                        b.planned(),
                        b.plannedBudget(),
                        b.plannedSpent(),
                        "spot reclaims, maintenance, preemptions, drains: never count as failures"));
        mode.add(new Div(Ui.badge("Ladder " + v.mode(), modeTheme(v.mode())), new Span(" " + modeLine(v.mode()))));
        if (healer != null) {
            Div heals = new Div(Ui.badge("Heals itself", "contrast"), new Span(" " + healerLine(healer)));
            heals.setId("job-recovery-heals-itself");
            mode.add(heals);
        }
        if (isQuiet) {
            quiet.add(Ui.empty("No attempts or advice yet: the job has not been interrupted."));
            return;
        }
        Advice a = v.current();
        if (a == null) {
            advice.add(Ui.empty("No advice yet."));
            return;
        }
        List<String> lines = adviceLines(a);
        advice.add(
                new Div(Ui.badge(verdictText(a.verdict()), verdictTheme(a.verdict())), new Span(" " + lines.get(0))));
        UnorderedList l = new UnorderedList();
        l.setId("job-recovery-facts");
        for (String line : lines.subList(1, lines.size())) {
            l.add(new ListItem(line));
        }
        advice.add(l);
    }

    private static Div budget(String id, String label, int used, Integer allowed, boolean spent, String what) {
        Div card = Ui.kpi(id, label, used + " / " + allowed(allowed), what);
        if (spent) {
            card.addClassNames("ll-spent");
            card.add(new Div(Ui.badge("! Budget spent", "error")));
        }
        return card;
    }

    /** A budget in one line, as the card reads: {@code Failures 2 / 3}, {@code ... 5 / no limit}, marked when spent. */
    static String budgetLine(String label, int used, Integer allowed, boolean spent) {
        return label + " " + used + " / " + allowed(allowed) + (spent ? " (spent)" : "");
    }

    /** Both budgets, each in one line. */
    static List<String> budgetLines(Budgets b) {
        return List.of(
                budgetLine("Failures", b.failures(), b.failureBudget(), b.failuresSpent()),
                budgetLine("With notice or by plan", b.planned(), b.plannedBudget(), b.plannedSpent()));
    }

    private static String allowed(Integer allowed) {
        return allowed == null ? "no limit" : String.valueOf(allowed);
    }

    /** What the ladder's mode means for this job. */
    static String modeLine(String mode) {
        return switch (mode == null ? "" : mode) {
            case "on" -> "remedies are decided, recorded and carried out";
            case "dry-run" -> "recorded only, nothing done";
            case "off" -> "no remedy is decided";
            default -> Format.text(mode);
        };
    }

    /** What the ladder leaves to a job that heals itself, and what it still does (rule heals-itself). */
    static String healerLine(JobData.SelfHealing h) {
        boolean torchft = JobData.SelfHealing.TORCHFT.equals(h.runtime());
        String who = torchft ? "TorchFT" : Format.text(h.runtime());
        return who + (h.endpoint() == null ? "" : (torchft ? " (Lighthouse " : " (at ") + h.endpoint() + ")")
                + ": a replica failure is left to it, no pod is restarted or replaced; a job that fails the same way"
                + " again and again, or saves no checkpoint, is still stopped";
    }

    private static String modeTheme(String mode) {
        return "on".equals(mode) ? "success" : "contrast";
    }

    static String verdictText(Verdict v) {
        return switch (v) {
            case PENDING -> "Pending";
            case VERIFIED -> "Verified";
            case FAILED -> "! Failed";
        };
    }

    static String verdictTheme(Verdict v) {
        return switch (v) {
            case PENDING -> "contrast";
            case VERIFIED -> "success";
            case FAILED -> "error";
        };
    }

    /**
     * What the advice says: its remedy (and node) for which incident first, then the rule, the expected state and
     * deadline, the outcome and the evidence, one line each (plain text, for tests and screen readers).
     */
    static List<String> adviceLines(Advice a) {
        List<String> out = new ArrayList<>();
        out.add(capitalised(Format.words(a.remedy()))
                + (a.node() == null ? "" : " (node " + a.node() + ")")
                + " for incident " + a.incident()
                + (a.dryRun() ? ": recorded only, nothing done" : ""));
        out.add("Rule: " + a.rule() + " (rules version " + a.rulesVersion() + "), rung " + a.rung() + ", decided "
                + Format.time(a.decidedAt(), UiSession.zone()));
        out.add("Expected: " + Format.text(a.expected()) + ", by " + Format.time(a.deadline(), UiSession.zone()));
        out.add("Outcome: "
                + (a.outcome() == null
                        ? a.pending() ? "not checked yet" : "—"
                        : a.outcome()
                                + (a.checkedAt() == null
                                        ? ""
                                        : " (checked " + Format.time(a.checkedAt(), UiSession.zone()) + ")")));
        for (String e : a.evidence()) {
            out.add("Evidence: " + e);
        }
        return out;
    }

    /** How an attempt ended: the incident's cause and id, or that it still runs. */
    static String endedBy(Attempt a) {
        if (a.running()) {
            return "running";
        }
        return Format.words(a.endCause()) + (a.endedBy() == null ? "" : " (" + a.endedBy() + ")");
    }

    private static String checkpoint(Attempt a) {
        if (a.checkpointAdvanced()) {
            return "yes" + (a.checkpointStepAtEnd() == null ? "" : ", to step " + a.checkpointStepAtEnd());
        }
        return a.running() ? "not yet" : "no";
    }

    /**
     * The attempt's first failed worker: {@code Type: line on rank R of node N}, the error shortened, and how many
     * more failed; a dash when none was reported.
     */
    static String firstFailure(Attempt a) {
        if (a.failures().isEmpty()) {
            return "—";
        }
        WorkerFailure f = a.failures().get(0);
        String what = f.signature() == null ? "no error reported" : shortened(f.signature());
        int more = a.failures().size() - 1;
        return what + " on rank " + f.rank() + (f.node() == null ? "" : " of node " + f.node())
                + (more == 0 ? "" : " (" + more + " more)");
    }

    private static String shortened(String s) {
        return s.length() <= MAX_FAILURE_CHARS ? s : s.substring(0, MAX_FAILURE_CHARS - 1) + "…";
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
