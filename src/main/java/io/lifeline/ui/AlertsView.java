package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.icon.VaadinIcon;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.shared.Registration;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Silence;
import io.lifeline.security.identity.Role;
import io.lifeline.ui.AlertsGateway.AlertRow;
import io.lifeline.ui.AlertsGateway.AlertsPage;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Alerts (pending, firing, recently resolved) with their rule, severity, labels, since when and the silences muting
 * them, filtered by state and rule; the silences in force below. Operators can silence an alert (matchers from its
 * labels) and expire a silence; viewers see no such buttons, and the gateway refuses them anyway. Re-read every
 * 10 s while open.
 */
@Route(value = "alerts", layout = MainLayout.class)
@PageTitle("Alerts · Lifeline")
public class AlertsView extends VerticalLayout {

    static final String ALL = "all";
    private static final Duration REFRESH = Duration.ofSeconds(10);

    private final AlertsGateway gateway;
    private final Select<String> state = new Select<>();
    private final Select<String> rule = new Select<>();
    private final Div status = new Div();
    private final Span count = new Span();
    private final Grid<AlertRow> grid = new Grid<>();
    private final Grid<Silence> silences = new Grid<>();
    private final Div silencesEmpty = new Div();
    private final boolean operator;
    private Registration ticking;
    private AlertsPage page;
    /** Numbers each read, so that an answer overtaken by a later read (a filter changed meanwhile) is dropped. */
    private long reads;

    @Inject
    public AlertsView(AlertsGateway gateway) {
        this.gateway = gateway;
        this.operator = UiSession.caller().has(Role.OPERATOR);
        addClassName("ll-page");
        setSizeFull();
        state.setId("alert-state");
        state.setLabel("State");
        state.setItems(ALL, AlertState.FIRING.wire(), AlertState.PENDING.wire(), AlertState.RESOLVED.wire());
        state.setValue(ALL);
        rule.setId("alert-rule");
        rule.setLabel("Rule");
        rule.setItems(ruleItems());
        rule.setValue(ALL);
        state.addValueChangeListener(e -> reload());
        rule.addValueChangeListener(e -> reload());
        Button refresh = new Button(VaadinIcon.REFRESH.create(), e -> reload());
        refresh.setId("alert-refresh");
        refresh.addThemeVariants(ButtonVariant.LUMO_TERTIARY);
        refresh.setTooltipText("Read again");
        refresh.setAriaLabel("Read the alerts again");
        count.setId("alert-count");
        status.setId("alert-status");
        HorizontalLayout filters = new HorizontalLayout(state, rule, refresh, count);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");

        grid.setId("alerts-grid");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.setWidthFull();
        grid.addComponentColumn(a -> Ui.badge(a.state().wire(), stateTheme(a.state())))
                .setHeader("State")
                .setAutoWidth(true)
                .setFlexGrow(0);
        grid.addComponentColumn(a -> Ui.badge(a.severity(), severityTheme(a.severity())))
                .setHeader("Severity")
                .setAutoWidth(true)
                .setFlexGrow(0);
        grid.addColumn(a -> a.alertName() + " (" + a.rule() + ")")
                .setHeader("Rule")
                .setAutoWidth(true);
        grid.addColumn(a -> labelsText(a)).setHeader("Labels").setFlexGrow(3);
        grid.addColumn(a -> Format.text(a.summary().isEmpty() ? null : a.summary()))
                .setHeader("Summary")
                .setFlexGrow(2);
        grid.addColumn(a -> Format.time(a.since(), UiSession.zone()) + " (" + Format.ago(a.since(), readAt()) + ")")
                .setHeader("Since")
                .setAutoWidth(true);
        grid.addColumn(a -> a.silencedBy().isEmpty() ? "" : String.join(", ", a.silencedBy()))
                .setHeader("Silenced by");
        if (operator) {
            grid.addComponentColumn(this::silenceButton)
                    .setKey("silence")
                    .setHeader("Silence")
                    .setAutoWidth(true)
                    .setFlexGrow(0);
        }

        silences.setId("silences-grid");
        silences.addThemeVariants(GridVariant.LUMO_COMPACT);
        silences.setWidthFull();
        silences.setAllRowsVisible(true);
        silences.addColumn(Silence::id).setHeader("Id").setAutoWidth(true);
        silences.addColumn(s -> s.matchers().stream().map(Object::toString).collect(Collectors.joining(", ")))
                .setHeader("Matchers")
                .setFlexGrow(3);
        silences.addColumn(s -> Format.time(s.endsAt(), UiSession.zone()))
                .setHeader("Until")
                .setAutoWidth(true);
        silences.addColumn(Silence::createdBy).setHeader("By").setAutoWidth(true);
        silences.addColumn(Silence::comment).setHeader("Comment").setFlexGrow(2);
        if (operator) {
            silences.addComponentColumn(this::expireButton)
                    .setKey("expire")
                    .setHeader("Expire")
                    .setAutoWidth(true)
                    .setFlexGrow(0);
        }
        silencesEmpty.setId("silences-empty");
        add(Ui.title("Alerts"), filters, status, grid, Ui.section("Silences", silencesEmpty, silences));
        setFlexGrow(1, grid);
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        reload();
        UI ui = e.getUI();
        ticking = gateway.every(REFRESH, () -> {
            Ui.access(ui, this::reload);
        });
    }

    @Override
    protected void onDetach(DetachEvent e) {
        if (ticking != null) {
            ticking.remove();
            ticking = null;
        }
        super.onDetach(e);
    }

    /** Reads the alerts for the current filters, off the UI thread, and shows them when they arrive. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void reload() {
        UI ui = UI.getCurrent();
        long read = ++reads;
        gateway.load(UiSession.caller(), selectedState(), selectedRule()).whenComplete((p, ex) -> {
            Ui.access(ui, () -> {
                if (read == reads) {
                    show(p, ex);
                }
            });
        });
    }

    private void show(AlertsPage p, Throwable ex) {
        status.removeAll();
        if (ex != null) {
            status.add(Ui.error("Could not read the alerts: " + AlertsGateway.message(ex)));
            return;
        }
        page = p;
        grid.setItems(p.alerts());
        long firing =
                p.alerts().stream().filter(a -> a.state() == AlertState.FIRING).count();
        count.setText(p.alerts().size() + " alerts · " + firing + " firing");
        if (p.alerts().isEmpty()) {
            status.add(Ui.empty("No alerts match."));
        }
        silences.setItems(p.silences());
        silences.setVisible(!p.silences().isEmpty());
        silencesEmpty.removeAll();
        if (p.silences().isEmpty()) {
            silencesEmpty.add(Ui.empty("No silence is active or pending."));
        }
    }

    private Button silenceButton(AlertRow a) {
        Button b = new Button("Silence…", e -> new SilenceDialog(gateway, a, UiSession.caller(), this::reload).open());
        b.setId("silence-" + a.fingerprint());
        b.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_TERTIARY);
        return b;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private Button expireButton(Silence s) {
        Button b = new Button("Expire", e -> {
            UI ui = UI.getCurrent();
            gateway.expire(UiSession.caller(), s.id()).whenComplete((x, ex) -> {
                Ui.access(ui, () -> {
                    if (ex != null) {
                        Notifications.error("Could not expire the silence: " + AlertsGateway.message(ex));
                    } else {
                        Notifications.info("Silence " + s.id() + " expired.");
                    }
                    reload();
                });
            });
        });
        b.setId("expire-" + s.id());
        b.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_TERTIARY);
        return b;
    }

    private AlertState selectedState() {
        return ALL.equals(state.getValue()) || state.getValue() == null ? null : AlertState.fromWire(state.getValue());
    }

    private AlertRule selectedRule() {
        return ALL.equals(rule.getValue()) || rule.getValue() == null ? null : AlertRule.parse(rule.getValue());
    }

    private java.time.Instant readAt() {
        return page == null ? java.time.Instant.now() : page.readAt();
    }

    private static List<String> ruleItems() {
        List<String> items = new java.util.ArrayList<>();
        items.add(ALL);
        for (AlertRule r : AlertRule.values()) {
            items.add(r.key());
        }
        return items;
    }

    static String labelsText(AlertRow a) {
        return a.labels().entrySet().stream()
                .filter(e -> !"alertname".equals(e.getKey()) && !"severity".equals(e.getKey()))
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String stateTheme(AlertState s) {
        return s == AlertState.FIRING ? "error" : s == AlertState.RESOLVED ? "success" : "";
    }

    private static String severityTheme(String s) {
        return "critical".equals(s) ? "error" : "warning".equals(s) ? "" : "contrast";
    }

    public Select<String> stateFilter() {
        return state;
    }

    public Select<String> ruleFilter() {
        return rule;
    }

    public Grid<AlertRow> grid() {
        return grid;
    }

    public Grid<Silence> silences() {
        return silences;
    }

    /** Whether the silence buttons are there (operators only). */
    public boolean showsSilenceButtons() {
        return operator;
    }
}
