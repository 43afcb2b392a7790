package io.lifeline.ui;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeInfo;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidOccurrence;
import java.util.Map;

/** One node: facts, state, notice, its GPUs' latest samples, XID history, the jobs on it, and drain/uncordon. */
public class NodePanel extends VerticalLayout {

    private final ActionsGateway actions;
    private final H2 title = new H2();
    private final Div facts = new Div();
    private final HorizontalLayout buttons = new HorizontalLayout();
    private final Grid<GpuView> gpus = new Grid<>();
    private final Grid<XidOccurrence> xids = new Grid<>();
    private final Div jobs = new Div();
    private NodePanelModel shown;
    private Button drain;
    private Button uncordon;
    private Div noAction;

    public NodePanel(ActionsGateway actions, Runnable onClose) {
        this.actions = actions;
        setId("node-panel");
        addClassNames("ll-card", "ll-node-panel");
        setPadding(false);
        // A named region; its heading takes the focus when it opens from the keyboard, Close gives it back.
        getElement().setAttribute("role", "region");
        getElement().setAttribute("aria-labelledby", "node-title");
        title.setId("node-title");
        title.getElement().setAttribute("tabindex", "-1");
        Button close = new Button("Close", e -> onClose.run());
        close.setId("node-close");
        close.setAriaLabel("Close the node panel");
        close.addThemeVariants(ButtonVariant.LUMO_TERTIARY);
        HorizontalLayout head = new HorizontalLayout(title, close);
        head.setWidthFull();
        head.expand(title);
        facts.setId("node-facts");
        buttons.setId("node-actions");
        gpus.setId("node-gpus");
        gpus.addThemeVariants(GridVariant.LUMO_COMPACT);
        gpus.setAllRowsVisible(true);
        gpus.addColumn(GpuView::index).setHeader("GPU").setWidth("4rem").setFlexGrow(0);
        gpus.addColumn(new ComponentRenderer<>(g -> g.health() == null
                        ? Ui.badge("gone", "contrast")
                        : Ui.badge(Format.words(g.health()), Ui.level(g.health().ordinal()))))
                .setHeader("Health");
        gpus.addColumn(g -> Format.number(g.utilizationPercent(), " %")).setHeader("Util");
        gpus.addColumn(g -> Format.number(g.temperatureCelsius(), " °C")).setHeader("Temp");
        gpus.addColumn(g -> Format.number(g.powerWatts(), " W")).setHeader("Power");
        gpus.addColumn(g -> g.memoryUsedMiB() == null ? "—" : Format.bytes(Math.round(g.memoryUsedMiB() * 1048576)))
                .setHeader("Memory");
        gpus.addColumn(g -> Format.text(g.eccDbeVolatile())).setHeader("ECC DBE");
        gpus.addColumn(g -> g.lastXid() == null || g.lastXid() == 0 ? "—" : String.valueOf(g.lastXid()))
                .setHeader("Last XID");
        gpus.addColumn(g -> Format.text(g.reason())).setHeader("Why").setAutoWidth(true);
        xids.setId("node-xids");
        xids.addThemeVariants(GridVariant.LUMO_COMPACT);
        xids.setAllRowsVisible(true);
        xids.addColumn(x -> Format.time(x.time(), UiSession.zone()))
                .setHeader("Time")
                .setAutoWidth(true);
        xids.addColumn(XidOccurrence::gpuIndex).setHeader("GPU");
        xids.addColumn(XidOccurrence::xid).setHeader("XID");
        xids.addColumn(x -> Format.text(x.description())).setHeader("Meaning").setAutoWidth(true);
        xids.addColumn(x -> Format.words(x.action())).setHeader("Policy");
        xids.setEmptyStateText("No XID reported.");
        jobs.setId("node-jobs");
        add(head, facts, buttons, new H3("GPUs"), gpus, new H3("XID history"), xids, new H3("Jobs on this node"), jobs);
    }

    /** Shows the model unless it is the one shown. */
    public void show(NodePanelModel m) {
        if (m.equals(shown)) {
            return;
        }
        shown = m;
        NodeDetail d = m.detail();
        title.setText(d.name());
        facts.removeAll();
        NodeInfo f = d.facts();
        facts.add(Ui.badge(Format.words(d.state()), d.state().name().equals("READY") ? "success" : "error"));
        if (d.cordoned() && !d.terminated()) {
            facts.add(Ui.badge("cordoned", "contrast"));
        }
        // A terminated node's GPUs are gone: its last verdict is no health to show.
        facts.add(
                d.terminated()
                        ? Ui.badge("GPUs gone", "contrast")
                        : Ui.badge(Format.words(d.health()), Ui.level(d.health().ordinal())));
        facts.add(new Span((f == null
                        ? " not registered yet"
                        : " " + f.pool() + " · " + Format.words(f.capacityType()) + " · " + Format.text(f.zone())
                                + " · " + Format.text(f.instanceType()))
                + " · " + d.gpuCount() + " GPUs"));
        if (d.notice() != null) {
            // Pending (the node is at risk), expired (its deadline passed and the node was not seen going) or past.
            String status = d.noticeActive() ? "Pending " : d.notice().expired() ? "Expired " : "Past ";
            String text = status + Format.words(d.notice().kind()) + " notice"
                    + (d.notice().deadline() == null
                            ? ""
                            : ", deadline " + Format.time(d.notice().deadline(), UiSession.zone()))
                    + (d.notice().windowEnd() == null
                            ? ""
                            : ", back by " + Format.time(d.notice().windowEnd(), UiSession.zone()))
                    + (d.notice().provider() == null ? "" : " (" + d.notice().provider() + ")");
            Div n = d.noticeActive() ? Ui.error(text) : new Div(new Span(text));
            n.setId("node-notice");
            facts.add(n);
        }
        facts.add(new Div(new Span("Interruptions in the last "
                + Format.duration(d.lemon().window().toMillis()) + ": "
                + d.lemon().interruptions())));
        gpus.setEmptyStateText(
                d.gpuCount() == 0
                        ? "No GPU reported yet."
                        : "None of its " + d.gpuCount() + " GPUs has reported telemetry yet.");
        gpus.setItems(d.gpus());
        java.util.List<XidOccurrence> newestFirst = new java.util.ArrayList<>(d.xidHistory());
        java.util.Collections.reverse(newestFirst);
        xids.setItems(newestFirst);
        jobs.removeAll();
        if (m.jobs().isEmpty()) {
            jobs.add(Ui.empty("No job has ranks on this node."));
        }
        for (String j : m.jobs()) {
            Anchor a = new Anchor("jobs/" + j, j);
            a.addClassNames("ll-chip");
            jobs.add(a);
        }
        if (UiSession.mayActOnNodes()) {
            if (!actions.available()) {
                buttons.removeAll();
                buttons.add(Ui.empty("Actions unavailable in this deployment."));
            } else if (drain == null) {
                // Made once and kept while the node changes, so the dialog can give the focus back to its button.
                drain = new Button("Drain…", e -> act(ActionKind.DRAIN));
                drain.setId("node-drain");
                drain.addThemeVariants(ButtonVariant.LUMO_ERROR);
                uncordon = new Button("Uncordon…", e -> act(ActionKind.UNCORDON));
                uncordon.setId("node-uncordon");
                noAction = Ui.empty("Terminated: the node is gone, nothing to drain or uncordon.");
                noAction.setId("node-no-action");
                buttons.add(drain, uncordon, noAction);
            }
            if (drain != null) {
                // The server refuses both on a terminated node; the panel does not offer them.
                drain.setVisible(!d.terminated());
                uncordon.setVisible(!d.terminated());
                noAction.setVisible(d.terminated());
                uncordon.setEnabled(d.cordoned());
            }
        }
    }

    private void act(ActionKind kind) {
        if (shown != null) {
            new ActionDialog(actions, ActionDialog.request(kind, shown.detail().name(), Map.of()), UiSession.caller())
                    .start();
        }
    }

    /** Moves the keyboard focus to the panel's heading (after it was opened from the heat map). */
    public void focusTitle() {
        title.getElement().executeJs("requestAnimationFrame(() => this.focus())");
    }

    public NodePanelModel shown() {
        return shown;
    }
}
