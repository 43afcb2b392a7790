package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.icon.VaadinIcon;
import com.vaadin.flow.theme.lumo.Lumo;

/**
 * The light/dark switch of the top bar and the sign-in page: a toggle button (aria-pressed) named "Dark theme".
 * The choice is kept in the session, so every page opened afterwards, also by a pasted link, keeps it, and in a
 * cookie of its own ({@value SignInPage#THEME_COOKIE}), shared with the sign-in page (which keeps no session); until
 * one is made the browser's preference (prefers-color-scheme) decides.
 */
public class ThemeSwitch extends Button {

    public ThemeSwitch() {
        super(VaadinIcon.ADJUST.create());
        setId("theme-toggle");
        addThemeVariants(ButtonVariant.LUMO_TERTIARY);
        setAriaLabel("Dark theme");
        addClickListener(e -> {
            boolean dark = !isDark(UI.getCurrent());
            UiSession.dark(dark);
            apply(UI.getCurrent(), dark);
            UI.getCurrent()
                    .getPage()
                    .executeJs(
                            "document.cookie = $0 + '=' + $1 + '; path=/; max-age=31536000; " + "SameSite=Lax'",
                            SignInPage.THEME_COOKIE,
                            dark ? "dark" : "light");
        });
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        UI ui = e.getUI();
        Boolean chosen = UiSession.dark();
        if (chosen == null) {
            chosen = fromCookie();
            if (chosen != null) {
                UiSession.dark(chosen);
            }
        }
        if (chosen != null) {
            apply(ui, chosen);
        } else {
            refresh(isDark(ui));
            ui.getPage()
                    .executeJs("return window.matchMedia('(prefers-color-scheme: dark)').matches")
                    .then(Boolean.class, dark -> {
                        if (UiSession.dark() == null) {
                            apply(ui, Boolean.TRUE.equals(dark));
                        }
                    });
        }
    }

    /** The theme chosen on the sign-in page (or earlier with this switch), or null. */
    private static Boolean fromCookie() {
        com.vaadin.flow.server.VaadinRequest request = com.vaadin.flow.server.VaadinRequest.getCurrent();
        jakarta.servlet.http.Cookie[] cookies = request == null ? null : request.getCookies();
        if (cookies != null) {
            for (jakarta.servlet.http.Cookie c : cookies) {
                if (SignInPage.THEME_COOKIE.equals(c.getName())) {
                    return "dark".equals(c.getValue())
                            ? Boolean.TRUE
                            : "light".equals(c.getValue()) ? Boolean.FALSE : null;
                }
            }
        }
        return null;
    }

    static boolean isDark(UI ui) {
        return ui.getElement().getThemeList().contains(Lumo.DARK);
    }

    /** Puts the theme on the page (body and root element, so the whole canvas follows) and updates the switch. */
    private void apply(UI ui, boolean dark) {
        var themes = ui.getElement().getThemeList();
        if (dark) {
            themes.add(Lumo.DARK);
        } else {
            themes.remove(Lumo.DARK);
        }
        ui.getPage().executeJs("document.documentElement.setAttribute('theme', $0)", dark ? Lumo.DARK : "");
        refresh(dark);
    }

    private void refresh(boolean dark) {
        getElement().setAttribute("aria-pressed", String.valueOf(dark));
        setTooltipText(dark ? "Switch to the light theme" : "Switch to the dark theme");
    }
}
