package io.lifeline.ui;

import com.vaadin.flow.component.HasElement;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.applayout.AppLayout;
import com.vaadin.flow.component.applayout.DrawerToggle;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Header;
import com.vaadin.flow.component.html.Main;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.icon.VaadinIcon;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.security.identity.Caller;
import java.time.ZoneId;

/**
 * The frame of every dashboard page: navigation, the signed-in caller and role, the time zone times are shown in,
 * a light/dark switch and sign-out. Sends anyone not signed in to the login page. Landmarks: the top bar is a
 * {@code header} (banner), the drawer's side navigation a {@code nav}, the view sits in the one {@code main}.
 */
@StyleSheet("context://styles/app.css")
public class MainLayout extends AppLayout implements BeforeEnterObserver {

    private final Span zone = new Span();
    private final Span who = new Span();
    private final Main main = new Main();

    public MainLayout() {
        Span title = new Span("Lifeline");
        title.addClassNames(LumoUtility.FontWeight.BOLD, LumoUtility.FontSize.LARGE);
        zone.setId("time-zone");
        zone.addClassNames(LumoUtility.TextColor.SECONDARY, LumoUtility.FontSize.SMALL);
        who.setId("caller");
        who.addClassNames(LumoUtility.FontSize.SMALL);
        ThemeSwitch theme = new ThemeSwitch();
        Button signOut = new Button("Sign out", e -> {
            boolean sso = UiSession.caller().subject() != null;
            UiSession.signOut();
            // Signed in through the identity provider: end that session too, or the next "Sign in with SSO" would let
            // anyone at this browser straight back in. Otherwise the sign-in page's logout ends the HTTP session.
            UI.getCurrent().getPage().setLocation(sso ? "auth/sso/logout" : "logout");
        });
        signOut.setId("sign-out");
        signOut.addThemeVariants(ButtonVariant.LUMO_TERTIARY);
        HorizontalLayout bar = new HorizontalLayout(title, zone, who, theme, signOut);
        bar.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.CENTER);
        bar.expand(zone);
        bar.setWidthFull();
        bar.addClassNames(LumoUtility.Padding.Horizontal.MEDIUM);
        // Landmarks: the top bar is the page's banner, the drawer its navigation, the view its one main region.
        Anchor skip = new Anchor("#main", "Skip to the page content");
        skip.setId("skip-to-content");
        skip.addClassName("ll-skip");
        skip.setRouterIgnore(true);
        skip.getElement()
                .executeJs("this.addEventListener('click', e => { e.preventDefault();"
                        + " const m = document.getElementById('main'); if (m) { m.focus(); } })");
        DrawerToggle toggle = new DrawerToggle();
        toggle.setId("drawer-toggle");
        toggle.setAriaLabel("Navigation menu");
        Header header = new Header(skip, toggle, bar);
        header.addClassName("ll-header");
        addToNavbar(header);
        main.setId("main");
        main.addClassName("ll-main");
        main.getElement().setAttribute("tabindex", "-1");
        setContent(main);

        SideNav nav = new SideNav();
        nav.setId("side-nav");
        nav.getElement().setAttribute("aria-label", "Dashboard pages");
        nav.addItem(new SideNavItem("Overview", OverviewView.class, VaadinIcon.DASHBOARD.create()));
        nav.addItem(new SideNavItem("Fleet", FleetView.class, VaadinIcon.SERVER.create()));
        nav.addItem(new SideNavItem("Jobs", JobsView.class, VaadinIcon.TASKS.create()));
        nav.addItem(new SideNavItem("Reliability", ReliabilityView.class, VaadinIcon.CHART.create()));
        nav.addItem(new SideNavItem("Objectives", ObjectivesView.class, VaadinIcon.CROSSHAIRS.create()));
        nav.addItem(new SideNavItem("Alerts", AlertsView.class, VaadinIcon.BELL.create()));
        nav.addItem(new SideNavItem("Actions", ActionsView.class, VaadinIcon.FLASH.create()));
        nav.addItem(new SideNavItem("Audit", AuditView.class, VaadinIcon.RECORDS.create()));
        addToDrawer(nav);
        showZone();
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        if (!UiSession.signedIn()) {
            // The security gate lets no request of a session nobody is signed in on this far; a session signed out
            // while a page was open ends up here: to the sign-in page (not a Vaadin view, it keeps no session).
            event.forwardTo(SignedOutView.class);
            return;
        }
        Caller c = UiSession.caller();
        who.setText(c.name() + " · " + (c.role() == null ? "" : c.role().wireName())
                + (c.namespaces().isEmpty() ? "" : " · " + String.join(", ", c.namespaces())));
    }

    @Override
    protected void onAttach(com.vaadin.flow.component.AttachEvent attachEvent) {
        super.onAttach(attachEvent);
        Ui.pageSetup(attachEvent.getUI());
        attachEvent.getUI().getPage().retrieveExtendedClientDetails(d -> {
            try {
                if (d.getTimeZoneId() != null) {
                    UiSession.zone(ZoneId.of(d.getTimeZoneId()));
                    showZone();
                }
            } catch (java.time.DateTimeException e) {
                // An id the JVM does not know: keep UTC.
            }
        });
    }

    private void showZone() {
        zone.setText("Times in " + UiSession.zone().getId());
    }

    /** Every view goes inside the page's one {@code main} element (the skip link's target). */
    @Override
    public void showRouterLayoutContent(HasElement content) {
        main.getElement().removeAllChildren();
        if (content != null) {
            main.getElement().appendChild(content.getElement());
        }
    }
}
