package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.textfield.PasswordField;
import io.lifeline.security.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class LoginViewTest {

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void anyoneNotSignedInIsSentToTheLoginPage() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate("fleet");
        assertThat(UiTestSupport.view(LoginView.class)).isNotNull();
    }

    @Test
    void withoutSingleSignOnConfiguredThereIsNoSsoButton() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate(LoginView.class);
        assertThat(_find(Anchor.class, s -> s.withId("sso"))).isEmpty();
    }

    @Test
    void aViewerTokenSignsInAndOpensTheOverview() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate(LoginView.class);
        _setValue(_get(PasswordField.class, s -> s.withId("token")), TestTokens.viewer());
        _click(_get(Button.class, s -> s.withId("sign-in")));
        assertThat(UiTestSupport.view(OverviewView.class)).isNotNull();
        assertThat(UiSession.caller().role()).isEqualTo(Role.VIEWER);
    }

    @Test
    void somethingThatIsNotATokenIsRefusedWithAReason() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate(LoginView.class);
        _setValue(_get(PasswordField.class, s -> s.withId("token")), "hunter2");
        _click(_get(Button.class, s -> s.withId("sign-in")));
        LoginView login = UiTestSupport.view(LoginView.class);
        UiTestSupport.await(() -> login.errorText() != null);
        assertThat(login.errorText()).contains("not a Lifeline token");
        assertThat(UiSession.signedIn()).isFalse();
    }

    @Test
    void anIngestOnlyTokenMayNotOpenTheDashboard() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate(LoginView.class);
        _setValue(_get(PasswordField.class, s -> s.withId("token")), TestTokens.ingest());
        _click(_get(Button.class, s -> s.withId("sign-in")));
        LoginView login = UiTestSupport.view(LoginView.class);
        UiTestSupport.await(() -> login.errorText() != null);
        assertThat(login.errorText()).contains("only send events");
        assertThat(UiSession.signedIn()).isFalse();
    }

    @Test
    void signingOutReturnsToTheLoginPage() {
        UiTestSupport.setup(Role.VIEWER);
        UI.getCurrent().navigate(OverviewView.class);
        UiTestSupport.view(OverviewView.class);
        _click(_get(Button.class, s -> s.withId("sign-out")));
        assertThat(UiTestSupport.view(LoginView.class)).isNotNull();
        assertThat(UiSession.signedIn()).isFalse();
    }
}
