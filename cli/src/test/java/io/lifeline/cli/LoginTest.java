package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code login}: the device-code flow, the browser flow with PKCE, a stored token, and refreshing an expired session. */
class LoginTest {

    @TempDir
    Path dir;

    private FakeServer idp;
    private FakeServer lifeline;
    private Map<String, String> env;
    private Path config;

    @BeforeEach
    void start() throws IOException {
        idp = new FakeServer();
        lifeline = new FakeServer();
        config = dir.resolve("config.yaml");
        env = Map.of("LIFELINECONFIG", config.toString(), "HOME", dir.toString());
        lifeline.on(
                "GET /api/v1/whoami",
                r -> r.header("Authorization") != null
                                && r.header("Authorization").startsWith("Bearer good-")
                        ? Reply.json(
                                "{\"tokenId\":null,\"name\":\"Ada [oidc:sub-ada]\",\"role\":\"operator\",\"namespaces\":[\"vision\"],"
                                        + "\"fleetWide\":false}")
                        : Reply.problem(401, "Unauthorized", "unknown or expired token"));
    }

    @AfterEach
    void stop() {
        idp.close();
        lifeline.close();
        LoginCommand.browserForTests = null;
    }

    private String discovery(boolean device) {
        return "{\"issuer\":\"" + idp.url() + "\",\"authorization_endpoint\":\"" + idp.url() + "/authorize\","
                + "\"token_endpoint\":\"" + idp.url() + "/token\""
                + (device ? ",\"device_authorization_endpoint\":\"" + idp.url() + "/device\"" : "") + "}";
    }

    @Test
    void deviceCodeFlowThenTheTokenIsRefreshedWhenItExpires() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        idp.on("GET /.well-known/openid-configuration", Reply.json(discovery(true)));
        idp.on(
                "POST /device",
                Reply.json("{\"device_code\":\"dev-1\",\"user_code\":\"WDJB-MJHT\",\"verification_uri\":\"" + idp.url()
                        + "/activate\",\"expires_in\":60,\"interval\":1}"));
        idp.on("POST /token", r -> {
            Map<String, String> f = Sso.form(r.body());
            if (Sso.DEVICE_GRANT.equals(f.get("grant_type"))) {
                return polls.incrementAndGet() < 2
                        ? new Reply(400, "application/json", "{\"error\":\"authorization_pending\"}")
                        : Reply.json("{\"access_token\":\"good-1\",\"refresh_token\":\"rt-1\",\"expires_in\":300}");
            }
            if ("refresh_token".equals(f.get("grant_type")) && "rt-1".equals(f.get("refresh_token"))) {
                return Reply.json("{\"access_token\":\"good-2\",\"refresh_token\":\"rt-2\",\"expires_in\":300}");
            }
            return new Reply(400, "application/json", "{\"error\":\"invalid_grant\"}");
        });
        CliRun.Result r = CliRun.run(
                env,
                "",
                "login",
                "--server",
                lifeline.url(),
                "--issuer",
                idp.url(),
                "--client-id",
                "lifelinectl",
                "--context",
                "sso");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("/activate and enter the code WDJB-MJHT");
        assertThat(r.out())
                .contains("Logged in to " + lifeline.url() + " as Ada [oidc:sub-ada] (operator, namespaces vision)");
        Config c = Config.load(config);
        assertThat(c.currentContext()).isEqualTo("sso");
        assertThat(Json.text(c.find("sso").sso, "access-token")).isEqualTo("good-1");
        assertThat(Json.text(c.find("sso").sso, "client-id")).isEqualTo("lifelinectl");

        c.find("sso").sso.put("expires-at", "2020-01-01T00:00:00Z");
        c.save();
        CliRun.Result who = CliRun.run(env, "", "whoami");
        assertThat(who.code()).as(who.err()).isZero();
        assertThat(lifeline.requests.get(lifeline.requests.size() - 1).header("Authorization"))
                .isEqualTo("Bearer good-2");
        assertThat(Json.text(Config.load(config).find("sso").sso, "refresh-token"))
                .isEqualTo("rt-2");
    }

    @Test
    void browserFlowWithPkceWhereTheProviderHasNoDeviceFlow() {
        AtomicReference<String> challenge = new AtomicReference<>();
        idp.on("GET /.well-known/openid-configuration", Reply.json(discovery(false)));
        idp.on("GET /authorize", r -> {
            Map<String, String> q = Sso.form(URI.create(r.uri()).getRawQuery());
            challenge.set(q.get("code_challenge"));
            assertThat(q.get("code_challenge_method")).isEqualTo("S256");
            assertThat(q.get("redirect_uri")).startsWith("http://127.0.0.1:");
            return new Reply(200, "text/plain", q.get("redirect_uri") + "?code=c-1&state=" + q.get("state"));
        });
        idp.on("POST /token", r -> {
            Map<String, String> f = Sso.form(r.body());
            boolean ok = "authorization_code".equals(f.get("grant_type"))
                    && "c-1".equals(f.get("code"))
                    && Sso.challenge(f.get("code_verifier")).equals(challenge.get());
            return ok
                    ? Reply.json("{\"access_token\":\"good-b\",\"expires_in\":60}")
                    : new Reply(400, "application/json", "{\"error\":\"invalid_grant\"}");
        });
        // The "browser": asks the provider, then follows where it sends the person (the loopback callback).
        LoginCommand.browserForTests = url -> {
            try {
                String back = new String(URI.create(url).toURL().openStream().readAllBytes(), StandardCharsets.UTF_8);
                HttpURLConnection c =
                        (HttpURLConnection) URI.create(back).toURL().openConnection();
                assertThat(c.getResponseCode()).isEqualTo(200);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        };
        CliRun.Result r =
                CliRun.run(env, "", "login", "--server", lifeline.url(), "--issuer", idp.url(), "--client-id", "cli");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Json.text(Config.load(config).find("default").sso, "access-token"))
                .isEqualTo("good-b");
    }

    @Test
    void storesAPastedTokenOnlyOnceTheServerAcceptsIt() throws Exception {
        CliRun.Result bad = CliRun.run(env, "llt_bad\n", "login", "--server", lifeline.url(), "--token-stdin");
        assertThat(bad.code()).isEqualTo(Exit.NOT_ALLOWED);
        assertThat(bad.err()).contains("Unauthorized: unknown or expired token");
        assertThat(Files.exists(config)).isFalse();
        CliRun.Result ok =
                CliRun.run(env, "good-token\n", "login", "--server", lifeline.url(), "--token-stdin", "-n", "vision");
        assertThat(ok.code()).as(ok.err()).isZero();
        Config c = Config.load(config);
        assertThat(c.find("default").token).isEqualTo("good-token");
        assertThat(c.find("default").namespace).isEqualTo("vision");
        assertThat(CliRun.run(env, "", "logout").code()).isZero();
        assertThat(Config.load(config).find("default").token).isNull();
        assertThat(Config.load(config).find("default").server).isEqualTo(lifeline.url());
    }
}
