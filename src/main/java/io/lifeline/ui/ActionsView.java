package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.ui.data.DashboardData;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The queue and history of actions, newest first, with their steps; pending and running ones can be cancelled. Above
 * them, for fleet-wide callers, the automation brake that bounds the nodes the policies take (with its reset button
 * for fleet-wide operators).
 */
@Route(value = "actions", layout = MainLayout.class)
@PageTitle("Actions · Lifeline")
public class ActionsView extends VerticalLayout {

    private static final int PAGE = 200;

    private final ActionsGateway actions;
    private final ComboBox<ActionState> state = new ComboBox<>("State");
    private final ComboBox<ActionKind> kind = new ComboBox<>("Kind");
    private final TextField target = new TextField("Target");
    private final Grid<ActionView> grid = new Grid<>();
    private final Div status = new Div();
    private final BrakeBanner brake;
    private List<ActionView> shown = List.of();
    private long lastLoad;
    /** Numbers each read, so that an answer overtaken by a later read (a filter changed meanwhile) is dropped. */
    private long reads;

    /** The page without the automation brake (a deployment or test without it). */
    public ActionsView(ActionsGateway actions, DashboardData data) {
        this(actions, data, null);
    }

    @Inject
    public ActionsView(ActionsGateway actions, DashboardData data, BrakeGateway brake) {
        this.actions = actions;
        this.brake = brake == null ? null : new BrakeBanner(brake);
        addClassName("ll-page");
        setSizeFull();
        state.setId("actions-state");
        state.setItems(ActionState.values());
        state.setItemLabelGenerator(ActionState::wire);
        state.setClearButtonVisible(true);
        kind.setId("actions-kind");
        kind.setItems(ActionKind.values());
        kind.setItemLabelGenerator(ActionKind::wire);
        kind.setClearButtonVisible(true);
        target.setId("actions-target");
        target.setClearButtonVisible(true);
        target.setValueChangeMode(ValueChangeMode.LAZY);
        state.addValueChangeListener(e -> reload());
        kind.addValueChangeListener(e -> reload());
        target.addValueChangeListener(e -> reload());
        status.setId("actions-status");
        grid.setId("actions-grid");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.setSizeFull();
        grid.addColumn(a -> Format.time(a.createdAt(), UiSession.zone()))
                .setHeader("Requested")
                .setAutoWidth(true);
        grid.addColumn(a -> a.kind().wire()).setHeader("Kind");
        grid.addColumn(ActionView::target).setHeader("Target").setAutoWidth(true);
        grid.addColumn(new ComponentRenderer<>(a -> Ui.badge(
                        a.state().wire(),
                        a.state() == ActionState.SUCCEEDED
                                ? "success"
                                : a.state() == ActionState.FAILED
                                        ? "error"
                                        : a.state().terminal() ? "contrast" : "")))
                .setHeader("State");
        grid.addColumn(ActionView::requestedBy).setHeader("By").setAutoWidth(true);
        grid.addColumn(a -> Format.text(a.outcome())).setHeader("Outcome").setFlexGrow(2);
        // Only operators may cancel: the column is there for them alone, and it has a header to be named by.
        grid.addColumn(new ComponentRenderer<>(this::cancelButton))
                .setHeader("Cancel")
                .setKey("cancel")
                .setAutoWidth(true)
                .setFlexGrow(0)
                .setVisible(UiSession.caller().has(io.lifeline.security.identity.Role.OPERATOR));
        grid.setItemDetailsRenderer(new ComponentRenderer<>(ActionsView::steps));
        // A click on a row shows its steps; Enter on a focused row does the same for the keyboard.
        Ui.openOnEnter(grid, a -> grid.setDetailsVisible(a, !grid.isDetailsVisible(a)));
        HorizontalLayout filters = new HorizontalLayout(state, kind, target);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        add(Ui.title("Actions"));
        if (this.brake != null) {
            add(this.brake);
        }
        add(filters, status, grid);
        addAttachListener(e -> reload());
        // Progress of running actions: re-read at most once a second while the page is open.
        Live.bind(this, data, s -> {
            if (System.currentTimeMillis() - lastLoad >= 1000) {
                reload();
            }
        });
    }

    private com.vaadin.flow.component.Component cancelButton(ActionView a) {
        if (a.state().terminal() || !UiSession.caller().has(io.lifeline.security.identity.Role.OPERATOR)) {
            return new Div();
        }
        Button b = new Button("Cancel", e -> cancel(a));
        b.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_TERTIARY);
        b.addClassName("ll-cancel");
        return b;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void cancel(ActionView a) {
        UI ui = UI.getCurrent();
        actions.cancel(a.id(), UiSession.caller())
                .whenComplete((v, ex) -> Ui.access(ui, () -> {
                    if (ex != null) {
                        Notifications.error("Could not cancel: " + ActionsGateway.message(ex));
                    } else {
                        Notifications.info(
                                "Action " + v.id() + " is " + v.state().wire());
                    }
                    reload();
                }));
    }

    static VerticalLayout steps(ActionView a) {
        Grid<ActionStepView> g = new Grid<>();
        g.addThemeVariants(GridVariant.LUMO_COMPACT);
        g.setAllRowsVisible(true);
        g.addColumn(ActionStepView::seq).setHeader("#").setWidth("3rem").setFlexGrow(0);
        g.addColumn(ActionStepView::name).setHeader("Step").setAutoWidth(true);
        g.addColumn(s -> s.state().wire()).setHeader("State");
        g.addColumn(s -> s.endedAt() == null || s.startedAt() == null
                        ? "—"
                        : Format.duration(
                                s.endedAt().toEpochMilli() - s.startedAt().toEpochMilli()))
                .setHeader("Took");
        g.addColumn(s -> Format.text(s.detail())).setHeader("Detail").setFlexGrow(2);
        g.setItems(a.steps());
        VerticalLayout v = new VerticalLayout(g);
        v.setPadding(false);
        return v;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void reload() {
        lastLoad = System.currentTimeMillis();
        if (brake != null) {
            brake.reload();
        }
        if (!actions.available()) {
            status.removeAll();
            status.add(Ui.empty("Actions are unavailable in this deployment."));
            grid.setVisible(false);
            return;
        }
        UI ui = UI.getCurrent();
        long read = ++reads;
        String t = target.getValue() == null || target.getValue().isBlank()
                ? null
                : target.getValue().trim();
        actions.list(
                        UiSession.caller(),
                        new ActionQuery(kind.getValue(), state.getValue(), t, null, null, null, PAGE, null))
                .whenComplete((p, ex) -> Ui.access(ui, () -> {
                    if (read != reads) {
                        return;
                    }
                    status.removeAll();
                    if (ex != null) {
                        status.add(Ui.error("Could not list actions: " + ActionsGateway.message(ex)));
                        return;
                    }
                    if (p.items().isEmpty()) {
                        status.add(Ui.empty("No actions yet."));
                    }
                    if (!p.items().equals(shown)) {
                        shown = p.items();
                        grid.setItems(shown);
                    }
                }));
    }

    public Grid<ActionView> grid() {
        return grid;
    }
}
