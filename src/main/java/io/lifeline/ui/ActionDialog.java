package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.shared.Registration;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.Impact;
import io.lifeline.security.identity.Caller;
import java.util.Map;
import java.util.UUID;

/**
 * Confirms an action: shows the dry run's impact first (GPU-hours at risk, checkpoint age, ranks, jobs and nodes
 * touched, warnings), asks for a reason, then submits it and follows its steps live until it ends.
 */
public class ActionDialog extends Dialog {

    private final ActionsGateway gateway;
    private final ActionRequest request;
    private final Caller caller;
    private final Div impact = new Div();
    private final Div brake = new Div();
    private final TextField reason = new TextField("Reason (kept in the audit)");
    private final Button confirm = new Button("Confirm");
    private final Button close = new Button("Cancel", e -> close());
    private final Div progress = new Div();
    private final Grid<ActionStepView> steps = new Grid<>();
    private final String idempotencyKey = UUID.randomUUID().toString();
    private Registration watch;
    private Impact shownImpact;
    private ActionView shownAction;

    public ActionDialog(ActionsGateway gateway, ActionRequest request, Caller caller) {
        this.gateway = gateway;
        this.request = request;
        this.caller = caller;
        setHeaderTitle(title(request));
        setWidth("36rem");
        addClassName("ll-action-dialog");
        impact.setId("action-impact");
        impact.setText("Computing the impact…");
        brake.setId("action-brake");
        reason.setId("action-reason");
        reason.setWidthFull();
        confirm.setId("action-confirm");
        confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY, ButtonVariant.LUMO_ERROR);
        confirm.setEnabled(false);
        confirm.addClickListener(e -> submit());
        close.setId("action-close");
        progress.setId("action-progress");
        progress.getElement().setAttribute("aria-live", "polite");
        steps.setId("action-steps");
        steps.addThemeVariants(GridVariant.LUMO_COMPACT);
        steps.setAllRowsVisible(true);
        steps.addColumn(ActionStepView::name).setHeader("Step").setAutoWidth(true);
        steps.addColumn(st -> st.state().wire()).setHeader("State");
        steps.addColumn(st -> Format.text(st.detail())).setHeader("Detail");
        steps.setVisible(false);
        add(new VerticalLayout(impact, brake, reason, progress, steps));
        getFooter().add(close, confirm);
        addOpenedChangeListener(e -> {
            if (!e.isOpened() && watch != null) {
                watch.remove();
            }
        });
    }

    /** Opens the dialog and starts the dry run. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    public ActionDialog start() {
        open();
        UI ui = UI.getCurrent();
        if (!gateway.available()) {
            impact.removeAll();
            impact.add(Ui.error("Actions are unavailable in this deployment."));
            return this;
        }
        gateway.dryRun(request, caller)
                .whenComplete((i, ex) -> Ui.access(ui, () -> {
                    if (ex != null) {
                        impact.removeAll();
                        impact.add(Ui.error("Refused: " + ActionsGateway.message(ex)));
                    } else {
                        showImpact(i);
                        confirm.setEnabled(true);
                    }
                }));
        // A drain also says what the automation brake would do with a policy's drain of the node (a person's drain
        // is never held): the same words as the API's dry run.
        gateway.brakePreview(request)
                .whenComplete((b, ex) -> Ui.access(ui, () -> {
                    if (ex == null && b.isPresent()) {
                        brake.setText("Automation brake, for a policy's drain of this node now: " + b.get());
                    }
                }));
        return this;
    }

    private void showImpact(Impact i) {
        shownImpact = i;
        impact.removeAll();
        UnorderedList facts = new UnorderedList(
                new ListItem("Work at risk: " + Format.gpuHours(i.gpuHoursAtRisk())),
                new ListItem("Newest checkpoint age: "
                        + (i.newestCheckpointAgeSeconds() == null
                                ? "no checkpoint"
                                : Format.duration(i.newestCheckpointAgeSeconds() * 1000))),
                new ListItem("Ranks affected: " + i.ranksAffected()),
                new ListItem("Jobs: " + (i.jobs().isEmpty() ? "none" : String.join(", ", i.jobs()))),
                new ListItem("Nodes: " + (i.nodes().isEmpty() ? "none" : String.join(", ", i.nodes()))),
                new ListItem(
                        i.deadlineAllowsCheckpoint()
                                ? "The deadline leaves time to save a checkpoint first."
                                : "The deadline leaves no time for a checkpoint first."));
        impact.add(new Paragraph("Dry run: nothing has been done yet."), facts);
        for (String w : i.warnings()) {
            impact.add(Ui.error(w));
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void submit() {
        confirm.setEnabled(false);
        reason.setReadOnly(true);
        UI ui = UI.getCurrent();
        ActionRequest r = new ActionRequest(request.kind(), request.target(), request.params(), reason.getValue());
        progress.setText("Submitting…");
        gateway.submit(r, caller, idempotencyKey)
                .whenComplete((s, ex) -> Ui.access(ui, () -> {
                    if (ex != null) {
                        progress.removeAll();
                        progress.add(Ui.error("Refused: " + ActionsGateway.message(ex)));
                        return;
                    }
                    close.setText("Close");
                    // Confirm is spent: the focus goes to Close, and the progress below is announced as it changes.
                    close.focus();
                    showAction(s.action());
                    watch = gateway.watch(caller, s.action().id(), v -> Ui.access(ui, () -> showAction(v)));
                }));
    }

    private void showAction(ActionView v) {
        shownAction = v;
        progress.removeAll();
        Span state = Ui.badge(
                v.state().wire(),
                v.state().terminal()
                        ? (v.state() == io.lifeline.domain.action.ActionState.SUCCEEDED ? "success" : "error")
                        : "");
        state.setId("action-state");
        progress.add(new Span("Action " + v.id() + ": "), state, new Paragraph(v.outcome() == null ? "" : v.outcome()));
        steps.setVisible(true);
        steps.setItems(v.steps());
    }

    static String title(ActionRequest r) {
        String what = switch (r.kind()) {
            case CHECKPOINT_NOW -> "Checkpoint now";
            case DRAIN -> "Drain node";
            case PREEMPT -> "Preempt (checkpoint, then suspend)";
            case RESUME -> "Resume";
            case RESCALE -> "Rescale to " + r.params().getOrDefault("workers", "?") + " workers";
            case RESTORE -> "Restore from " + r.params().getOrDefault("checkpointId", "?");
            case RESTART_WORKERS -> "Restart workers (stacks first)";
            case REPLACE_PODS -> "Replace the pods on " + r.params().getOrDefault("node", "?");
            case UNCORDON -> "Uncordon node";
            case CORDON -> "Cordon node";
        };
        return what + " · " + r.target();
    }

    /** A request with no parameters. */
    static ActionRequest request(io.lifeline.domain.action.ActionKind kind, String target, Map<String, String> params) {
        return new ActionRequest(kind, target, params, "");
    }

    public Impact shownImpact() {
        return shownImpact;
    }

    public ActionView shownAction() {
        return shownAction;
    }
}
