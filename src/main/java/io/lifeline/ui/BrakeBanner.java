package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.textfield.TextField;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.policy.AutomationBrakeService;

/**
 * The automation brake above the policies' decisions on the Actions page: released (with the nodes taken within its
 * window against the bound) or engaged (since when, why, how many decisions it held), and for fleet-wide operators a
 * "Reset brake…" button that asks for a reason (kept in the audit) before releasing it.
 */
class BrakeBanner extends Div {

    private final BrakeGateway brake;
    private final Span text = new Span();
    private final Button reset = new Button("Reset brake…", e -> confirm());
    private AutomationBrakeService.View shown;

    BrakeBanner(BrakeGateway brake) {
        this.brake = brake;
        setId("brake-banner");
        getElement().setAttribute("aria-live", "polite");
        text.setId("brake-state");
        reset.setId("brake-reset");
        reset.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_ERROR);
        reset.setVisible(false);
        HorizontalLayout row = new HorizontalLayout(text, reset);
        row.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.CENTER);
        add(row);
    }

    /** Reads the brake again; nothing for a caller who may not see it. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void reload() {
        if (!brake.visibleTo(UiSession.caller())) {
            setVisible(false);
            return;
        }
        UI ui = UI.getCurrent();
        brake.view()
                .whenComplete((v, ex) -> Ui.access(ui, () -> {
                    if (ex != null) {
                        text.setText("Automation brake: could not be read (" + ActionsGateway.message(ex) + ")");
                        return;
                    }
                    show(v);
                }));
    }

    void show(AutomationBrakeService.View v) {
        if (v.equals(shown)) {
            return;
        }
        shown = v;
        AutomationBrake.State st = v.state();
        AutomationBrake.Settings s = v.settings();
        String window = Format.duration(s.window().toMillis());
        if (!s.enabled()) {
            text.setText("Automation brake: off (lifeline.policies.brake.enabled=false)");
        } else if (st.isEngaged()) {
            AutomationBrake.Trip t = st.engaged();
            text.setText("Automation brake engaged since " + Format.time(t.at(), UiSession.zone()) + ": " + t.policy()
                    + "'s drain of " + t.node() + " — " + t.reason() + ". " + st.held()
                    + " decision(s) held; the policies drain no node until it is reset.");
        } else {
            text.setText("Automation brake released: " + v.fleet().taken() + " of "
                    + v.fleet().bound()
                    + " nodes taken by policies within " + window + " (at most " + Math.round(s.poolShare() * 100)
                    + " % of a pool).");
        }
        removeClassNames("ll-brake-engaged", "ll-brake-released");
        addClassName(st.isEngaged() ? "ll-brake-engaged" : "ll-brake-released");
        reset.setVisible(st.isEngaged() && UiSession.caller().mayActOnNodes());
        setVisible(true);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void confirm() {
        Dialog d = new Dialog();
        d.setHeaderTitle("Reset the automation brake");
        TextField reason = new TextField("Reason (kept in the audit)");
        reason.setId("brake-reason");
        reason.setWidthFull();
        Button go = new Button("Reset", e -> {
            UI ui = UI.getCurrent();
            brake.reset(UiSession.caller(), reason.getValue())
                    .whenComplete((v, ex) -> Ui.access(ui, () -> {
                        if (ex != null) {
                            Notifications.error("Could not reset the brake: " + ActionsGateway.message(ex));
                        } else {
                            Notifications.info("Automation brake released; the policies count afresh.");
                            show(v);
                        }
                        d.close();
                    }));
        });
        go.setId("brake-reset-confirm");
        go.addThemeVariants(ButtonVariant.LUMO_PRIMARY, ButtonVariant.LUMO_ERROR);
        d.add(
                new Paragraph("The policies may drain nodes again, counted afresh. Make sure what engaged the brake"
                        + " (forged or replayed notices, a wave of reclaims) is understood first."),
                reason);
        d.getFooter().add(new Button("Cancel", e -> d.close()), go);
        d.open();
    }
}
