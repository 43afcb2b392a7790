package io.lifeline.ui;

import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.PasswordField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinResponse;
import io.lifeline.security.SsoTickets;
import java.util.List;
import jakarta.inject.Inject;
import jakarta.servlet.http.Cookie;

/**
 * Sign-in with an API token, or through the organisation's identity provider when single sign-on is configured.
 * The token itself is never kept: only the verified caller, in the session.
 */
@Route("login")
@PageTitle("Sign in · Lifeline")
@StyleSheet("context://styles/app.css")
public class LoginView extends VerticalLayout implements BeforeEnterObserver {

    private final LoginPresenter presenter;
    private final PasswordField token = new PasswordField("API token");
    private final Button signIn = new Button("Sign in");
    private final Div error = new Div();

    @Inject
    public LoginView(LoginPresenter presenter) {
        this.presenter = presenter;
        addClassName("ll-login");
        setAlignItems(Alignment.STRETCH);
        // No frame on this page: the form itself is the page's main landmark.
        getElement().setAttribute("role", "main");
        token.setPlaceholder("llt_...");
        token.setId("token");
        token.setWidthFull();
        token.setRevealButtonVisible(false);
        signIn.setId("sign-in");
        signIn.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
        signIn.addClickShortcut(Key.ENTER);
        signIn.addClickListener(e -> submit());
        error.addClassNames("ll-error");
        error.setVisible(false);
        ThemeSwitch theme = new ThemeSwitch();
        H1 heading = new H1("Lifeline");
        heading.getStyle().set("flex-grow", "1");
        HorizontalLayout head = new HorizontalLayout(heading, theme);
        head.setAlignItems(Alignment.CENTER);
        head.setWidthFull();
        add(head,
                new Paragraph("Paste an API token. Viewers see everything; operators and admins can also act. "
                        + "The first admin token is in .lifeline/admin-token."),
                token, signIn, error);
        if (presenter.ssoEnabled()) {
            // A plain link: the provider's sign-in is a full page round trip, not a dashboard route.
            Anchor sso = new Anchor("auth/sso", presenter.ssoLabel());
            sso.setId("sso");
            sso.setRouterIgnore(true);
            sso.addClassName("ll-sso");
            add(new Paragraph("Or, with your organisation's account:"), sso);
        }
    }

    @Override
    protected void onAttach(com.vaadin.flow.component.AttachEvent e) {
        super.onAttach(e);
        Ui.pageSetup(e.getUI());
    }

    /** Back from the identity provider: redeem the sign-in ticket its callback left in a cookie. */
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        if (event.getLocation().getQueryParameters().getParameters().containsKey("sso")) {
            show("Single sign-on did not give you access: your identity provider groups grant no Lifeline role. "
                    + "Ask an admin, or sign in with an API token.");
        }
        List<String> ended = event.getLocation().getQueryParameters().getParameters().get("ended");
        if (ended != null && !ended.isEmpty()) {
            show("You were signed out: " + ("revoked".equals(ended.get(0)) ? "your token was revoked"
                    : "expired".equals(ended.get(0)) ? "your sign-in expired" : "your sign-in is no longer valid")
                    + ". Sign in again.");
        }
        VaadinRequest request = VaadinRequest.getCurrent();
        Cookie[] cookies = request == null ? null : request.getCookies();
        if (cookies == null) {
            return;
        }
        for (Cookie c : cookies) {
            if (SsoTickets.COOKIE.equals(c.getName())) {
                forgetTicketCookie(request);
                presenter.redeemSignIn(c.getValue()).ifPresentOrElse(r -> {
                    UiSession.signIn(r.caller(), new SessionGuard.Identity(r.identityExpires()));
                    event.forwardTo(OverviewView.class);
                }, () -> show("That sign-in has expired or was already used; sign in again."));
                return;
            }
        }
    }

    private static void forgetTicketCookie(VaadinRequest request) {
        VaadinResponse response = VaadinResponse.getCurrent();
        if (response != null) {
            Cookie gone = new Cookie(SsoTickets.COOKIE, "");
            gone.setPath(request.getContextPath().isEmpty() ? "/" : request.getContextPath());
            gone.setMaxAge(0);
            gone.setHttpOnly(true);
            response.addCookie(gone);
        }
    }

    private void submit() {
        signIn.setEnabled(false);
        UI ui = UI.getCurrent();
        presenter.signIn(token.getValue()).whenComplete((r, ex) -> ui.access(() -> {
            signIn.setEnabled(true);
            if (ex != null) {
                show("Sign-in is unavailable right now: " + ex.getMessage());
            } else if (!r.ok()) {
                show(r.error());
            } else {
                UiSession.signIn(r.caller(), r.credential());
                token.clear();
                ui.navigate(OverviewView.class);
            }
        }));
    }

    private void show(String message) {
        error.setText(message);
        error.setVisible(true);
    }

    /** The error shown, or null, for tests. */
    public String errorText() {
        return error.isVisible() ? error.getText() : null;
    }
}
