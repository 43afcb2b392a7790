package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.datetimepicker.DateTimePicker;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** The audit trail of actions and policy changes, newest first, filtered by actor, kind, target, action and time. */
@Route(value = "audit", layout = MainLayout.class)
@PageTitle("Audit · Lifeline")
public class AuditView extends VerticalLayout {

    private static final int PAGE = 200;

    private final ActionsGateway gateway;
    private final TextField actor = new TextField("Actor");
    private final TextField what = new TextField("What");
    private final TextField target = new TextField("Target");
    private final TextField actionId = new TextField("Action");
    private final DateTimePicker from = new DateTimePicker("From");
    private final DateTimePicker to = new DateTimePicker("To");
    private final Grid<AuditEntry> grid = new Grid<>();
    private final Div status = new Div();
    private final Button more = new Button("Older entries");
    private final List<AuditEntry> entries = new ArrayList<>();
    private String next;
    /** Numbers each read, so that an answer overtaken by a later read (a filter changed meanwhile) is dropped. */
    private long reads;

    @Inject
    public AuditView(ActionsGateway gateway) {
        this.gateway = gateway;
        addClassName("ll-page");
        setSizeFull();
        actor.setId("audit-actor");
        what.setId("audit-what");
        what.setPlaceholder("action.requested");
        target.setId("audit-target");
        actionId.setId("audit-action");
        from.setId("audit-from");
        to.setId("audit-to");
        for (TextField f : List.of(actor, what, target, actionId)) {
            f.setClearButtonVisible(true);
            f.setValueChangeMode(ValueChangeMode.LAZY);
            f.addValueChangeListener(e -> reload(false));
        }
        from.addValueChangeListener(e -> reload(false));
        to.addValueChangeListener(e -> reload(false));
        status.setId("audit-status");
        grid.setId("audit-grid");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.setSizeFull();
        grid.addColumn(e -> Format.time(e.time(), UiSession.zone()))
                .setHeader("Time")
                .setAutoWidth(true);
        grid.addColumn(AuditEntry::actor).setHeader("Actor").setAutoWidth(true);
        grid.addColumn(AuditEntry::what).setHeader("What").setAutoWidth(true);
        grid.addColumn(e -> Format.text(e.target())).setHeader("Target").setAutoWidth(true);
        grid.addColumn(e -> Format.text(e.actionId())).setHeader("Action");
        grid.addColumn(e -> Format.text(e.reason())).setHeader("Reason");
        grid.addColumn(e -> (e.before() == null ? "" : e.before() + " → ") + Format.text(e.after()))
                .setHeader("Change")
                .setFlexGrow(2);
        more.setId("audit-more");
        more.addClickListener(e -> reload(true));
        HorizontalLayout filters = new HorizontalLayout(actor, what, target, actionId, from, to);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");
        add(Ui.title("Audit"), filters, status, grid, more);
        addAttachListener(e -> reload(false));
    }

    /** The filters as a query; {@code older} pages back from the last entry shown. */
    AuditQuery query(boolean older) {
        return new AuditQuery(
                blank(actor),
                blank(what),
                blank(target),
                blank(actionId),
                instant(from.getValue()),
                instant(to.getValue()),
                PAGE,
                older ? next : null);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void reload(boolean older) {
        if (!gateway.auditAvailable()) {
            status.removeAll();
            status.add(Ui.empty("The audit log is unavailable in this deployment."));
            grid.setVisible(false);
            more.setVisible(false);
            return;
        }
        UI ui = UI.getCurrent();
        long read = ++reads;
        gateway.audit(UiSession.caller(), query(older)).whenComplete((p, ex) -> {
            Ui.access(ui, () -> {
                if (read != reads) {
                    return;
                }
                status.removeAll();
                if (ex != null) {
                    status.add(Ui.error("Could not read the audit log: " + ActionsGateway.message(ex)));
                    return;
                }
                if (!older) {
                    entries.clear();
                }
                entries.addAll(p.items());
                next = p.nextCursor();
                more.setVisible(next != null);
                if (entries.isEmpty()) {
                    status.add(Ui.empty("Nothing audited matches."));
                }
                grid.setItems(entries);
            });
        });
    }

    private static String blank(TextField f) {
        return f.getValue() == null || f.getValue().isBlank()
                ? null
                : f.getValue().trim();
    }

    private static Instant instant(LocalDateTime t) {
        return t == null ? null : t.atZone(UiSession.zone()).toInstant();
    }

    public Grid<AuditEntry> grid() {
        return grid;
    }
}
