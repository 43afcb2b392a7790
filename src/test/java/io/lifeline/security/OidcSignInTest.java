package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.security.identity.Role;
import io.lifeline.security.store.SsoTickets;
import io.lifeline.testing.RequiredTool;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestIdentityProvider;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Single sign-on through an OpenID Connect provider (a real protocol peer started by the test, signing RS256 tokens):
 * automation presents the provider's JWTs, people sign in to the dashboard through the code flow, and their groups
 * decide the role and namespaces, on the server, exactly as for API tokens.
 */
@QuarkusTest
@QuarkusTestResource(value = OidcSignInTest.ProviderOn.class, restrictToAnnotatedClass = true)
class OidcSignInTest {

    /** Starts the provider and points Lifeline at it, with three groups mapped. */
    public static class ProviderOn implements QuarkusTestResourceLifecycleManager {
        static TestIdentityProvider idp;

        @Override
        public Map<String, String> start() {
            try {
                idp = TestIdentityProvider.start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Map<String, String> m = new HashMap<>();
            // A port known before start, so that the dashboard's external address can be configured.
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                port = free.getLocalPort();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            m.put("quarkus.http.test-port", Integer.toString(port));
            m.put("lifeline.security.oidc.external-url", "http://localhost:" + port);
            m.put("lifeline.security.oidc.enabled", "true");
            m.put("quarkus.oidc.auth-server-url", idp.issuer());
            m.put("quarkus.oidc.client-id", TestIdentityProvider.CLIENT_ID);
            m.put("quarkus.oidc.credentials.secret", TestIdentityProvider.CLIENT_SECRET);
            m.put("lifeline.security.oidc.groups.\"ml-viewers\"", "viewer");
            m.put("lifeline.security.oidc.groups.\"" + NS_A + "-ops\"", "operator:" + NS_A);
            m.put("lifeline.security.oidc.groups.\"platform\"", "admin");
            return m;
        }

        @Override
        public void stop() {
            if (idp != null) {
                idp.close();
            }
        }
    }

    static final String NS_A =
            "sso-a-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffL);
    static final String NS_B =
            "sso-b-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffL);
    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");

    @TestHTTPResource("/")
    URL root;

    private static TestIdentityProvider idp() {
        return ProviderOn.idp;
    }

    private static String jwt(String user, String... groups) {
        return idp().accessToken(user, Duration.ofMinutes(5), groups);
    }

    private static String checkpoint(String job, boolean dryRun) {
        return "{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"params\":{\"deadlineSeconds\":5},"
                + "\"reason\":\"sso test\",\"dryRun\":" + dryRun + "}";
    }

    @Test
    void automationPresentsTheProvidersTokenAndGetsItsGroupsRole() {
        given().spec(TestTokens.auth(jwt("alice", "ml-viewers", "unrelated")))
                .get("/api/v1/whoami")
                .then()
                .statusCode(200)
                .body("role", equalTo("viewer"))
                .body("name", equalTo("alice"))
                .body("fleetWide", equalTo(true));
        given().spec(TestTokens.auth(jwt("alice", "ml-viewers")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(200);
        given().spec(TestTokens.auth(jwt("alice", "ml-viewers")))
                .contentType(ContentType.JSON)
                .body(checkpoint("any/job", true))
                .post("/api/v1/actions")
                .then()
                .statusCode(403)
                .contentType("application/problem+json");
        // The highest role among the person's groups wins.
        given().spec(TestTokens.auth(jwt("carol", "ml-viewers", "platform")))
                .get("/api/v1/tokens")
                .then()
                .statusCode(200);
    }

    @Test
    void anOperatorByGroupActsOnlyInItsNamespaceAndIsNamedInTheRecord() {
        String node = "sso-node-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        new TestFleet().node(node, "pool").job(NS_A + "/llm", 0, 0, node).job(NS_B + "/llm", 0, 0, node);
        String bob = jwt("bob", NS_A + "-ops");
        given().spec(TestTokens.auth(bob))
                .contentType(ContentType.JSON)
                .body(checkpoint(NS_B + "/llm", false))
                .post("/api/v1/actions")
                .then()
                .statusCode(403)
                .body("detail", containsString(NS_B));
        given().spec(TestTokens.auth(bob))
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"drain\",\"target\":\"" + node + "\",\"reason\":\"sso\",\"dryRun\":true}")
                .post("/api/v1/actions")
                .then()
                .statusCode(403);
        given().spec(TestTokens.auth(bob))
                .contentType(ContentType.JSON)
                .body(checkpoint(NS_A + "/llm", false))
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .body("requestedBy", equalTo("bob [oidc:sub-bob]"));
    }

    @Test
    void tokensTheProviderDidNotSignExpiredOrGrantingNothingAreRefused() {
        given().spec(TestTokens.auth(idp().accessToken("alice", Duration.ofMinutes(-5), "ml-viewers")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("invalid_token"));
        given().spec(TestTokens.auth(idp().tokenFromAnotherProvider("alice", "platform")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401);
        // Signed by the provider, but for another application, with an algorithm not allowed, or dated ahead.
        given().spec(TestTokens.auth(idp().accessTokenForAudience("another-app", "alice", "platform")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401)
                .body("detail", containsString("is not Lifeline's"));
        given().spec(TestTokens.auth(idp().accessTokenSignedWith("RS384", "alice", "platform")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401)
                .body("detail", containsString("algorithm"));
        given().spec(TestTokens.auth(idp().accessTokenIssuedAhead(Duration.ofMinutes(10), "alice", "platform")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401);
        given().spec(TestTokens.auth(idp().accessTokenIssuedAhead(Duration.ofSeconds(5), "alice", "platform")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(200);
        given().spec(TestTokens.auth("not-a-jwt-at-all"))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401)
                .body("detail", containsString("identity provider"));
        // A mangled API token is still answered as one, not as a provider token.
        given().spec(TestTokens.auth("llt_short_secret"))
                .get("/api/v1/jobs")
                .then()
                .statusCode(401)
                .body("detail", containsString("Lifeline token"));
        given().spec(TestTokens.auth(jwt("mallory", "strangers")))
                .get("/api/v1/jobs")
                .then()
                .statusCode(403)
                .body("detail", containsString("none of your identity provider groups"));
        // API tokens keep working beside the provider.
        given().spec(TestTokens.asViewer())
                .get("/api/v1/whoami")
                .then()
                .statusCode(200)
                .body("role", equalTo("viewer"));
    }

    @Test
    void theCodeFlowEndsWithASingleUseSignInTicketForTheDashboard() throws Exception {
        idp().signInAs("dana", "ml-viewers");
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        Map<String, String> cookies = new HashMap<>();
        HttpResponse<String> r = get(http, url("auth/sso"), cookies);
        assertThat(r.statusCode()).isEqualTo(302);
        String toProvider = r.headers().firstValue("Location").orElseThrow();
        assertThat(toProvider)
                .startsWith(idp().issuer() + "/authorize")
                .contains("client_id=lifeline")
                // PKCE, and the fixed redirect URI on the configured external address.
                .contains("code_challenge=", "code_challenge_method=S256")
                .contains("redirect_uri=" + java.net.URLEncoder.encode(url("auth/sso"), StandardCharsets.UTF_8));
        int exchanges = idp().pkceExchanges();
        r = get(http, toProvider, cookies);
        assertThat(r.statusCode()).isEqualTo(302);
        String back = r.headers().firstValue("Location").orElseThrow();
        assertThat(back).contains("/auth/sso").contains("code=");
        // Back at Lifeline: the code is exchanged, then the person lands on the sign-in page with a ticket.
        String ticketCookie = null;
        for (int hop = 0; hop < 4 && ticketCookie == null; hop++) {
            r = get(http, back, cookies);
            assertThat(r.statusCode()).as(r.body()).isIn(302, 303);
            ticketCookie = r.headers().allValues("Set-Cookie").stream()
                    .filter(c -> c.startsWith(SsoTickets.COOKIE + "="))
                    .findFirst()
                    .orElse(null);
            back = URI.create(url(""))
                    .resolve(r.headers().firstValue("Location").orElseThrow())
                    .toString();
        }
        assertThat(ticketCookie)
                .as("the sign-in ticket cookie")
                .isNotNull()
                .containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Lax");
        assertThat(back).endsWith("/login");
        String ticket = ticketCookie.substring(SsoTickets.COOKIE.length() + 1, ticketCookie.indexOf(';'));
        SsoTickets tickets =
                io.quarkus.arc.Arc.container().instance(SsoTickets.class).get();
        assertThat(tickets.redeem(ticket)).hasValueSatisfying(c -> {
            assertThat(c.name()).isEqualTo("dana");
            assertThat(c.role()).isEqualTo(Role.VIEWER);
        });
        assertThat(tickets.redeem(ticket)).as("single use").isEmpty();
        assertThat(idp().pkceExchanges())
                .as("the code was exchanged with its PKCE verifier")
                .isEqualTo(exchanges + 1);
    }

    /**
     * The redirect URI does not follow the Host header: a sign-in begun under another name is sent to the configured
     * external address before the provider hears of it.
     */
    @Test
    void aSignInBegunUnderAnotherHostIsSentToTheConfiguredAddressFirst() throws Exception {
        try (java.net.Socket s = new java.net.Socket(root.getHost(), root.getPort())) {
            s.getOutputStream()
                    .write(("GET /auth/sso HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer)
                    .startsWith("HTTP/1.1 303")
                    .containsIgnoringCase("location: " + url("auth/sso"))
                    .doesNotContain("evil.example")
                    .doesNotContain("/authorize");
        }
    }

    @Test
    void aPersonSignsInToTheDashboardThroughTheProvider() {
        RequiredTool.CHROMIUM.file();
        RequiredTool.CHROMEDRIVER.file();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run");
        WebDriver driver = new ChromeDriver(
                new ChromeDriverService.Builder().usingDriverExecutable(DRIVER).build(), options);
        try {
            idp().signInAs("erin", NS_A + "-ops");
            driver.get(url("login"));
            waitFor(driver, By.id("sso")).click();
            // Vaadin re-renders elements while the test reads them: a stale reference means look again.
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(120));
            wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
            wait.until(d -> !d.findElements(By.id("caller")).isEmpty()
                    && d.findElement(By.id("caller")).getText().contains("erin"));
            assertThat(driver.findElement(By.id("caller")).getText()).isEqualTo("erin · operator · " + NS_A);

            // Signing out ends the provider's session too: the next sign-in goes back to the provider.
            int signIns = idp().signIns();
            driver.findElement(By.id("sign-out")).click();
            wait.until(
                    d -> idp().signOuts() == 1 && !d.findElements(By.id("sso")).isEmpty());
            assertThat(driver.getCurrentUrl()).contains("/login");
            driver.findElement(By.id("sso")).click();
            wait.until(d -> !d.findElements(By.id("caller")).isEmpty());
            assertThat(idp().signIns()).isEqualTo(signIns + 1);

            // Someone whose groups grant nothing is told so on the sign-in page.
            driver.manage().deleteAllCookies();
            idp().signInAs("frank", "strangers");
            driver.get(url("login"));
            waitFor(driver, By.id("sso")).click();
            wait.until(d -> d.getPageSource().contains("grant no Lifeline role"));
            assertThat(driver.findElements(By.id("caller"))).isEmpty();
        } finally {
            driver.quit();
        }
    }

    private static org.openqa.selenium.WebElement waitFor(WebDriver driver, By by) {
        return new WebDriverWait(driver, Duration.ofSeconds(120))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> {
                    List<org.openqa.selenium.WebElement> found = d.findElements(by);
                    return found.isEmpty() ? null : found.get(0);
                });
    }

    private String url(String path) {
        return root.toString() + path;
    }

    private static HttpResponse<String> get(HttpClient http, String url, Map<String, String> cookies) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        if (!cookies.isEmpty()) {
            b.header(
                    "Cookie",
                    String.join(
                            "; ",
                            cookies.entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .toList()));
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        for (String c : r.headers().allValues("Set-Cookie")) {
            String pair = c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'));
            int eq = pair.indexOf('=');
            String value = pair.substring(eq + 1);
            if (value.isEmpty() || c.toLowerCase(Locale.ROOT).contains("max-age=0")) {
                cookies.remove(pair.substring(0, eq));
            } else {
                cookies.put(pair.substring(0, eq), value);
            }
        }
        return r;
    }
}
