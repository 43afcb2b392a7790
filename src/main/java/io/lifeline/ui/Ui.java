package io.lifeline.ui;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.UIDetachedException;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.theme.lumo.LumoUtility;

/** Small building blocks shared by the views: cards, badges, empty and error states. */
final class Ui {

    private Ui() {}

    /**
     * Runs {@code change} under the tab's session lock ({@link UI#access}), from a background thread: the one way a
     * read that finished elsewhere updates a view. Does nothing once the tab has closed (Vaadin then refuses with
     * {@link UIDetachedException}), or when there was no tab ({@code ui} null): nothing is left to update, and the
     * background work itself goes on.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // a failed UI command goes to the session's error handler
    static void access(UI ui, com.vaadin.flow.server.Command change) {
        if (ui == null) {
            return;
        }
        try {
            ui.access(change);
        } catch (UIDetachedException ignored) {
            // The tab closed between the read and the push.
        }
    }

    /**
     * Once per page: Vaadin's connection indicator (outside every view) becomes a polite status region, so what it
     * says ("Online", "Connection lost") is announced and is not content outside the landmarks.
     */
    static void pageSetup(UI ui) {
        ui.getPage()
                .executeJs("const c = document.querySelector('vaadin-connection-indicator');"
                        + " if (c) { c.setAttribute('role', 'status'); }");
    }

    /**
     * Opens a grid's row with the keyboard: Enter on a focused cell (the grid's navigation mode, not on a button
     * inside a cell) does what a click on the row does.
     */
    static <T> void openOnEnter(com.vaadin.flow.component.grid.Grid<T> grid, java.util.function.Consumer<T> open) {
        grid.getElement()
                .addEventListener("keydown", e -> {
                    String key = e.getEventData().getString(ROW_KEY);
                    T item = key == null
                            ? null
                            : grid.getDataCommunicator().getKeyMapper().get(key);
                    if (item != null) {
                        open.accept(item);
                    }
                })
                .setFilter("event.key === 'Enter' && ['td', 'tr'].includes(event.composedPath()[0].localName)")
                .addEventData(ROW_KEY);
    }

    private static final String ROW_KEY = "(() => { const r = event.composedPath().find(n => n.localName === 'tr'"
            + " && n._item); return r ? r._item.key : null; })()";

    /** A view's one level-one heading. */
    static com.vaadin.flow.component.html.H1 title(String text) {
        com.vaadin.flow.component.html.H1 h = new com.vaadin.flow.component.html.H1(text);
        h.addClassNames("ll-title");
        return h;
    }

    /** A key figure with a label and a hint under it. */
    static Div kpi(String id, String label, String value, String hint) {
        Div card = new Div();
        card.setId(id);
        card.addClassNames("ll-card", "ll-kpi");
        Span l = new Span(label);
        l.addClassNames(LumoUtility.FontSize.SMALL, LumoUtility.TextColor.SECONDARY);
        Span v = new Span(value);
        v.addClassNames("ll-kpi-value");
        Span h = new Span(hint);
        // Secondary, not tertiary, text: Lumo's tertiary colour is about 3:1 on the card, below WCAG AA's 4.5:1.
        h.addClassNames(LumoUtility.FontSize.XSMALL, LumoUtility.TextColor.SECONDARY);
        card.add(l, v, h);
        return card;
    }

    /** A titled section. */
    static Div section(String title, Component... content) {
        Div d = new Div();
        d.addClassNames("ll-card");
        H2 h = new H2(title);
        h.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        d.add(h);
        d.add(content);
        return d;
    }

    /** A Lumo badge; {@code theme} is one of "", "success", "error", "contrast". */
    static Span badge(String text, String theme) {
        Span s = new Span(text);
        s.getElement().getThemeList().add("badge");
        if (theme != null && !theme.isEmpty()) {
            s.getElement().getThemeList().add(theme);
        }
        s.getElement().getThemeList().add("small");
        return s;
    }

    /** What an empty list says instead of showing nothing. */
    static Div empty(String text) {
        Div d = new Div();
        d.setText(text);
        d.addClassNames("ll-empty");
        return d;
    }

    /** An error the person can read. */
    static Div error(String text) {
        Div d = new Div();
        d.setText(text);
        d.addClassNames("ll-error");
        return d;
    }

    /** A badge theme for a health-like level: 0 good, 1 warning, 2 bad. */
    static String level(int level) {
        return level <= 0 ? "success" : level == 1 ? "" : "error";
    }
}
