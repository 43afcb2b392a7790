package io.lifeline.ui;

import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.PasswordField;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;

/** Sign-in with an API token. The token itself is never kept: only the verified caller, in the session. */
@Route("login")
@PageTitle("Sign in · Lifeline")
@StyleSheet("context://styles/app.css")
public class LoginView extends VerticalLayout {

    private final LoginPresenter presenter;
    private final PasswordField token = new PasswordField("API token");
    private final Button signIn = new Button("Sign in");
    private final Div error = new Div();

    @Inject
    public LoginView(LoginPresenter presenter) {
        this.presenter = presenter;
        addClassName("ll-login");
        setAlignItems(Alignment.STRETCH);
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
        add(new H1("Lifeline"),
                new Paragraph("Paste an API token. Viewers see everything; operators and admins can also act. "
                        + "The first admin token is in .lifeline/admin-token."),
                token, signIn, error);
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
                UiSession.signIn(r.caller());
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
