package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.ui.ObjectivesGateway.ObjectivesPage;
import io.lifeline.ui.data.DashboardData;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Goodput objectives: one card per objective the signed-in caller may see (as {@code GET /api/v1/objectives} shows
 * them), with its state, ETTR against the target over its window, a bar of the error budget spent and left (GPU-hours,
 * and money where the jobs are priced), the burn rates of the 5 min, 30 min, 1 h and 6 h windows against the fast and
 * slow thresholds, the time to exhaustion, what spent the budget by cause, and links to the jobs in scope (their pages
 * list the incidents). {@code ?job=namespace/name} in the URL keeps the objectives that job is under. Read again as
 * the fleet changes, at most every few seconds: the book itself moves once a sample interval.
 */
@Route(value = "objectives", layout = MainLayout.class)
@PageTitle("Objectives · Lifeline")
public class ObjectivesView extends com.vaadin.flow.component.orderedlayout.VerticalLayout
        implements BeforeEnterObserver {

    private static final long MIN_REREAD_MILLIS = 5000;
    /** Jobs linked on a card; the rest are counted. */
    static final int LISTED_JOBS = 12;

    private final ObjectivesGateway gateway;
    private final Span summary = new Span();
    private final Div filter = new Div();
    private final Div status = new Div();
    private final Div cards = new Div();
    private String job;
    private ObjectivesPage page;
    private long readAt;
    private boolean reading;
    private boolean again;

    @Inject
    public ObjectivesView(ObjectivesGateway gateway, DashboardData data) {
        this.gateway = gateway;
        addClassName("ll-page");
        summary.setId("obj-summary");
        summary.addClassNames("ll-muted");
        filter.setId("obj-filter");
        status.setId("obj-status");
        cards.setId("obj-cards");
        cards.addClassName("ll-objectives");
        cards.setWidthFull();
        add(Ui.title("Objectives"), summary, filter, status, cards);
        Live.bind(this, data, s -> reloadIfStale());
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        reload();
    }

    /** Restores the job filter from the URL. */
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        Map<String, List<String>> p = event.getLocation().getQueryParameters().getParameters();
        String j = UrlState.single(p, "job");
        job = j == null || j.isBlank() || j.indexOf('/') <= 0 ? null : j;
        filter.removeAll();
        if (job != null) {
            Anchor all = new Anchor("objectives", "show all objectives");
            all.setId("obj-show-all");
            filter.add(new Span("Objectives job " + job + " is under · "), all);
        }
        page = null;
        if (isAttached()) {
            reload();
        }
    }

    private void reloadIfStale() {
        if (System.currentTimeMillis() - readAt >= MIN_REREAD_MILLIS) {
            reload();
        }
    }

    /** Reads the objectives off the UI thread; a change while a read runs reads again after it. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void reload() {
        UI ui = UI.getCurrent();
        if (ui == null) {
            return;
        }
        if (reading) {
            again = true;
            return;
        }
        reading = true;
        readAt = System.currentTimeMillis();
        gateway.page(UiSession.scope(), job)
                .whenComplete((p, ex) -> Ui.access(ui, () -> {
                    reading = false;
                    show(p, ex);
                    if (again) {
                        again = false;
                        reload();
                    }
                }));
    }

    private void show(ObjectivesPage p, Throwable ex) {
        status.removeAll();
        if (ex != null) {
            status.add(Ui.error("Could not read the objectives: " + AlertsGateway.message(ex)));
            return;
        }
        if (p.equals(page)) {
            return;
        }
        page = p;
        BurnThresholds t = p.thresholds();
        summary.setText(counts(p.objectives()) + " · set by " + p.source() + " · burn alerts: fast at "
                + ObjectivesPresenter.threshold(t.fast()) + " (1h and 5m), slow at "
                + ObjectivesPresenter.threshold(t.slow()) + " (6h and 30m)");
        cards.removeAll();
        if (p.objectives().isEmpty()) {
            status.add(Ui.empty(
                    job != null
                            ? "Job " + job + " is under no objective you may see."
                            : UiSession.scope().isEverything()
                                    ? "No objective is set. Set them with lifeline.objectives.* or PUT"
                                            + " /api/v1/objectives (see docs/objectives.md)."
                                    : "No objective covers your namespaces."));
            return;
        }
        for (ObjectiveStatus s : p.objectives()) {
            cards.add(card(s, t));
        }
    }

    /** "2 objectives: 1 met, 1 burning". */
    static String counts(List<ObjectiveStatus> all) {
        Map<String, Integer> by = new LinkedHashMap<>();
        for (ObjectiveStatus s : all) {
            by.merge(ObjectivesPresenter.state(s.state()).toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        StringBuilder b = new StringBuilder().append(all.size()).append(all.size() == 1 ? " objective" : " objectives");
        String sep = ": ";
        for (Map.Entry<String, Integer> e : by.entrySet()) {
            b.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        return b.toString();
    }

    static Div card(ObjectiveStatus s, BurnThresholds t) {
        String name = s.objective().name();
        Div card = new Div();
        card.setId("objective-" + name);
        card.addClassNames("ll-card", "ll-objective");
        card.getElement().setAttribute("aria-label", ObjectivesPresenter.summary(s));
        H2 title = new H2(name + " ");
        title.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        Span badge = Ui.badge(ObjectivesPresenter.state(s.state()), ObjectivesPresenter.theme(s.state()));
        badge.addClassName("ll-objective-state");
        badge.getElement().setAttribute("data-state", s.state().wire());
        title.add(badge);
        card.add(title, line("obj-headline", ObjectivesPresenter.headline(s.objective())));
        card.add(line("obj-ettr", "ETTR over the window: " + ObjectivesPresenter.ettr(s)));
        card.add(bar(s), line("obj-budget", "Budget: " + ObjectivesPresenter.budget(s)));
        String money = ObjectivesPresenter.money(s);
        if (!money.isEmpty()) {
            card.add(line("obj-money", "Priced: " + money));
        }
        String limits = ObjectivesPresenter.limits(s);
        if (!limits.isEmpty()) {
            card.add(line("obj-limits", "Loss limits: " + limits));
        }
        card.add(
                line("obj-burn", "Burn rate: " + ObjectivesPresenter.burns(s, t)),
                line("obj-verdict", ObjectivesPresenter.burnVerdict(s, t)),
                line("obj-exhaustion", "Budget runs out: " + ObjectivesPresenter.exhaustion(s)));
        card.add(spent(s), jobs(s));
        return card;
    }

    private static Div line(String cls, String text) {
        Div d = new Div();
        d.addClassName(cls);
        d.setText(text);
        return d;
    }

    /** The budget as a bar: the spent part red, the rest green; full and red once overspent. */
    private static Div bar(ObjectiveStatus s) {
        double share = ObjectivesPresenter.spentShare(s);
        Div spent = new Div();
        spent.addClassName("ll-budget-spent");
        spent.getStyle().set("width", String.format(Locale.ENGLISH, "%.1f%%", share * 100));
        Div bar = new Div(spent);
        bar.addClassName("ll-budget-bar");
        bar.getElement().setAttribute("role", "meter");
        bar.getElement().setAttribute("aria-valuemin", "0");
        bar.getElement().setAttribute("aria-valuemax", "100");
        bar.getElement().setAttribute("aria-valuenow", String.format(Locale.ENGLISH, "%.0f", share * 100));
        bar.getElement().setAttribute("aria-label", "Error budget spent");
        return bar;
    }

    /** What spent the budget: a bar per cause, scaled to the largest. */
    private static Div spent(ObjectiveStatus s) {
        Div d = new Div();
        d.addClassName("obj-spent");
        List<Map.Entry<String, Double>> causes = ObjectivesPresenter.spentByCause(s);
        Span label = new Span("Spent by cause");
        label.addClassNames(LumoUtility.FontSize.SMALL, LumoUtility.TextColor.SECONDARY);
        d.add(label);
        if (causes.isEmpty()) {
            d.add(Ui.empty("Nothing spent in the window."));
            return d;
        }
        double max = causes.get(0).getValue();
        for (Map.Entry<String, Double> e : causes) {
            Div fill = new Div();
            fill.addClassName("ll-cause-fill");
            fill.getStyle().set("width", String.format(Locale.ENGLISH, "%.1f%%", 100 * e.getValue() / max));
            Div track = new Div(fill);
            track.addClassName("ll-cause-track");
            Div row = new Div(
                    new Span(ObjectivesPresenter.words(e.getKey())), track, new Span(Format.gpuHours(e.getValue())));
            row.addClassName("ll-cause-row");
            row.getElement().setAttribute("data-cause", e.getKey());
            d.add(row);
        }
        return d;
    }

    /** Links to the jobs in scope: their pages show the incidents that spent the budget. */
    private static Div jobs(ObjectiveStatus s) {
        Div d = new Div();
        d.addClassName("obj-jobs");
        Span label =
                new Span(s.jobs() == 1 ? "1 job in scope: " : s.jobs() + " jobs in scope" + (s.jobs() > 0 ? ": " : ""));
        label.addClassNames(LumoUtility.FontSize.SMALL, LumoUtility.TextColor.SECONDARY);
        d.add(label);
        List<String> names = s.jobNames();
        for (int i = 0; i < Math.min(LISTED_JOBS, names.size()); i++) {
            if (i > 0) {
                d.add(new Span(", "));
            }
            Anchor a = new Anchor(ObjectivesPresenter.jobHref(names.get(i)), names.get(i));
            a.getElement().setAttribute("title", "Open " + names.get(i) + " and its incidents");
            d.add(a);
        }
        if (s.jobs() > LISTED_JOBS) {
            d.add(new Span(" and " + (s.jobs() - LISTED_JOBS) + " more"));
        }
        return d;
    }

    /** The page shown, for tests. */
    public ObjectivesPage page() {
        return page;
    }

    Div cards() {
        return cards;
    }
}
