package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import io.lifeline.security.DashboardSessions;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's sign-in, through the real HTTP server: the page keeps no session, a good token makes a new session
 * whose cookie is HttpOnly and SameSite, refused tokens are told why and get no session, failed sign-ins from one
 * address are throttled without locking out a real token, a form sent from another site is refused, and signing out
 * ends the session.
 */
@QuarkusTest
class SignInTest {

    @TestHTTPResource("/")
    URL base;

    @Inject
    DashboardSessions sessions;

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    /** One request from {@code from} (a loopback address), read whole. */
    String send(String from, String method, String path, String cookie, String form, String origin) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            s.connect(new InetSocketAddress(InetAddress.getByName(base.getHost()), base.getPort()), 5000);
            s.setSoTimeout(20_000);
            StringBuilder r = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":"
                    + base.getPort() + "\r\nConnection: close\r\n");
            if (cookie != null) {
                r.append("Cookie: ").append(cookie).append("\r\n");
            }
            if (origin != null) {
                r.append("Origin: ").append(origin).append("\r\n");
            }
            byte[] body = form == null ? new byte[0] : form.getBytes(StandardCharsets.UTF_8);
            if (form != null) {
                r.append("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ")
                        .append(body.length)
                        .append("\r\n");
            }
            r.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(r.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    String signIn(String from, String token) throws IOException {
        return send(from, "POST", "/login", null, "token=" + URLEncoder.encode(token, StandardCharsets.UTF_8), null);
    }

    static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    static List<String> setCookies(String response) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?im)^set-cookie: *(.*?)\\r?$")
                .matcher(response.substring(0, Math.max(0, response.indexOf("\r\n\r\n"))));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static String sessionCookie(String response) {
        return setCookies(response).stream()
                .filter(c -> c.startsWith("JSESSIONID="))
                .map(c -> c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .findFirst()
                .orElse(null);
    }

    @Test
    void theSignInPageKeepsNoSessionAndAGoodTokenMakesAHardenedOne() throws Exception {
        String page = send("127.0.0.1", "GET", "/login", null, null, null);
        assertThat(status(page)).isEqualTo(200);
        assertThat(page).contains("id=\"token\"", "id=\"sign-in\"", "<form method=\"post\" action=\"login\"");
        assertThat(setCookies(page)).as("the sign-in page sets no cookie").isEmpty();
        assertThat(sessionCookie(send("127.0.0.1", "GET", "/", null, null, null)))
                .isNull();

        String answer = signIn("127.0.0.1", TestTokens.viewer());
        assertThat(status(answer)).isEqualTo(303);
        assertThat(answer).containsPattern("(?i)location: .*/\\r\\n");
        String cookieHeader = setCookies(answer).stream()
                .filter(c -> c.startsWith("JSESSIONID="))
                .findFirst()
                .orElseThrow();
        System.out.println("Session cookie after sign-in: " + cookieHeader.replaceAll("=[^;]+", "=..."));
        assertThat(cookieHeader)
                .containsIgnoringCase("; HttpOnly")
                .containsIgnoringCase("; SameSite=Lax")
                .as("no Secure over plain HTTP")
                .doesNotContainIgnoringCase("Secure");
        String cookie = sessionCookie(answer);
        assertThat(sessions.isSignedIn(cookie.substring("JSESSIONID=".length())))
                .isTrue();
        // With the session's cookie the request goes through to the dashboard (not back to the sign-in page).
        String dashboard = send("127.0.0.1", "GET", "/jobs", cookie, null, null);
        assertThat(status(dashboard)).isNotEqualTo(303);
        assertThat(dashboard).doesNotContainPattern("(?i)location: .*/login");

        // Signing out ends the session: its cookie opens nothing any more.
        assertThat(status(send("127.0.0.1", "GET", "/logout", cookie, null, null)))
                .isEqualTo(303);
        assertThat(sessions.isSignedIn(cookie.substring("JSESSIONID=".length())))
                .isFalse();
        String after = send("127.0.0.1", "GET", "/jobs", cookie, null, null);
        assertThat(status(after)).isEqualTo(303);
        assertThat(after).containsPattern("(?i)location: .*/login");
    }

    @Test
    void refusedTokensAreToldWhyAndGetNoSession() throws Exception {
        // An address of its own: other tests' bad tokens from 127.0.0.1 may have it throttled.
        String from = "127.0.0.8";
        String notAToken = signIn(from, "hunter2");
        assertThat(status(notAToken)).isEqualTo(400);
        assertThat(notAToken).contains("not a Lifeline token");
        String ingest = signIn(from, TestTokens.ingest());
        assertThat(status(ingest)).isEqualTo(403);
        assertThat(ingest).contains("only send events");
        String unknown = signIn(from, "llt_nosuchidzzzz_" + "A".repeat(43));
        assertThat(status(unknown)).isEqualTo(401);
        assertThat(unknown).contains("Token refused (invalid)");
        for (String r : List.of(notAToken, ingest, unknown)) {
            assertThat(setCookies(r)).isEmpty();
        }
    }

    @Test
    void aSignInFormSentFromAnotherSiteIsRefused() throws Exception {
        String answer =
                send("127.0.0.1", "POST", "/login", null, "token=" + TestTokens.viewer(), "https://evil.example");
        assertThat(status(answer)).isEqualTo(403);
        assertThat(setCookies(answer)).isEmpty();
    }

    @Test
    void failedSignInsFromOneAddressAreThrottledWithoutLockingOutARealToken() throws Exception {
        String from = "127.0.0.7";
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            statuses.add(status(
                    signIn(from, "llt_zzsigninaa" + (char) ('a' + i) + (char) ('a' + i) + "_" + "B".repeat(43))));
        }
        assertThat(statuses.subList(0, 15)).containsOnly(401);
        assertThat(statuses.subList(22, 25)).containsOnly(429);
        String throttled = signIn(from, "llt_zzsigninzzzz_" + "B".repeat(43));
        assertThat(status(throttled)).isEqualTo(429);
        assertThat(throttled).contains("Too many sign-ins");
        // A token made just now, never seen by this server before, still signs in from that address.
        String fresh = TestTokens.create("signin-after-flood", Role.VIEWER, List.of());
        String answer = signIn(from, fresh);
        assertThat(status(answer)).as(answer).isEqualTo(303);
        assertThat(sessionCookie(answer)).isNotNull();
    }

    @Test
    void aSessionSignedOutWhileAPageIsOpenShowsNoData() {
        UiTestSupport.setup(null);
        UI.getCurrent().navigate("fleet");
        assertThat(UiTestSupport.view(SignedOutView.class)).isNotNull();
    }

    @Test
    void signingOutForgetsTheCallerAndGoesToTheLogoutPage() {
        UiTestSupport.setup(Role.VIEWER);
        UI.getCurrent().navigate(OverviewView.class);
        UiTestSupport.view(OverviewView.class);
        _click(_get(Button.class, s -> s.withId("sign-out")));
        assertThat(UiSession.signedIn()).isFalse();
        assertThat(UI.getCurrent().getInternals().dumpPendingJavaScriptInvocations())
                .anySatisfy(js -> assertThat(js.getInvocation().getParameters()).contains("logout"));
    }
}
