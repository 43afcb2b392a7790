package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Single sign-on for the command line through the organisation's OpenID Connect provider: the device authorization
 * grant (RFC 8628: a code to enter on another device, works over SSH) where the provider offers it, else the
 * authorization code flow with PKCE in the browser and a loopback redirect (RFC 8252). The provider's access token is
 * what Lifeline is sent; it is refreshed with the refresh token when it expires.
 */
final class Sso {

    static final String DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How to sign in. */
    enum Flow {
        AUTO,
        DEVICE,
        BROWSER
    }

    /** Opens a URL for the person signing in (the browser); tests replace it. */
    interface Browser {
        void open(String url);
    }

    private final Terminal term;
    private final Duration timeout;
    private final Browser browser;

    Sso(Terminal term, Duration timeout, Browser browser) {
        this.term = term;
        this.timeout = timeout;
        this.browser = browser;
    }

    /** The provider's discovery document. */
    JsonNode discover(String issuer) {
        String url = (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
                + "/.well-known/openid-configuration";
        return request("GET", url, null).body;
    }

    /**
     * Signs in and returns what to store in the context: {@code issuer}, {@code client-id}, {@code token-endpoint},
     * {@code access-token}, {@code refresh-token}, {@code expires-at}.
     */
    ObjectNode login(String issuer, String clientId, String clientSecret, String scope, Flow flow) {
        JsonNode d = discover(issuer);
        String device = Json.text(d, "device_authorization_endpoint");
        String authorize = Json.text(d, "authorization_endpoint");
        String tokenEndpoint = Json.text(d, "token_endpoint");
        if (tokenEndpoint == null) {
            throw new CliException(Exit.FAILED, "the provider " + issuer + " publishes no token endpoint");
        }
        JsonNode tokens;
        if (flow == Flow.DEVICE || flow == Flow.AUTO && device != null) {
            if (device == null) {
                throw new CliException(
                        Exit.FAILED, "the provider " + issuer + " does not offer the device flow; try --browser");
            }
            tokens = device(device, tokenEndpoint, clientId, clientSecret, scope);
        } else {
            if (authorize == null) {
                throw new CliException(
                        Exit.FAILED,
                        "the provider " + issuer + " offers neither the device flow nor an "
                                + "authorization endpoint: store a token with 'lifelinectl login --token-stdin'");
            }
            tokens = browser(authorize, tokenEndpoint, clientId, clientSecret, scope);
        }
        ObjectNode sso = Json.object();
        sso.put("issuer", issuer);
        sso.put("client-id", clientId);
        if (clientSecret != null) {
            sso.put("client-secret", clientSecret);
        }
        if (scope != null) {
            sso.put("scope", scope);
        }
        sso.put("token-endpoint", tokenEndpoint);
        store(sso, tokens);
        return sso;
    }

    private static void store(ObjectNode sso, JsonNode tokens) {
        String access = Json.text(tokens, "access_token");
        if (access == null) {
            throw new CliException(Exit.NOT_ALLOWED, "the provider answered without an access token");
        }
        sso.put("access-token", access);
        if (Json.text(tokens, "refresh_token") != null) {
            sso.put("refresh-token", Json.text(tokens, "refresh_token"));
        }
        long expiresIn = tokens.path("expires_in").asLong(3600);
        sso.put("expires-at", Instant.now().plusSeconds(expiresIn).toString());
    }

    private JsonNode device(String endpoint, String tokenEndpoint, String clientId, String secret, String scope) {
        Map<String, String> form = client(clientId, secret);
        form.put("scope", scope == null ? "openid offline_access" : scope);
        JsonNode start = post(endpoint, form);
        String deviceCode = Json.text(start, "device_code");
        if (deviceCode == null) {
            throw new CliException(Exit.FAILED, "the provider's device authorization answer has no device_code");
        }
        String complete = Json.text(start, "verification_uri_complete");
        String uri = Json.text(start, "verification_uri") != null
                ? Json.text(start, "verification_uri")
                : Json.text(start, "verification_url");
        term.err()
                .println("To sign in, open " + (complete != null ? complete : uri)
                        + (complete != null ? "" : " and enter the code " + Json.text(start, "user_code")));
        if (complete != null) {
            term.err().println("(or open " + uri + " and enter the code " + Json.text(start, "user_code") + ")");
        }
        term.err().println("Waiting for you to sign in...");
        term.err().flush();
        long interval = Math.max(1, start.path("interval").asLong(5));
        long deadline = System.nanoTime()
                + Math.min(
                        timeout.toNanos(),
                        TimeUnit.SECONDS.toNanos(start.path("expires_in").asLong(600)));
        Map<String, String> poll = client(clientId, secret);
        poll.put("grant_type", DEVICE_GRANT);
        poll.put("device_code", deviceCode);
        while (System.nanoTime() < deadline) {
            sleep(interval * 1000);
            Answer a = request("POST", tokenEndpoint, poll);
            if (a.status == 200) {
                return a.body;
            }
            String error = Json.text(a.body, "error");
            if ("authorization_pending".equals(error)) {
                continue;
            }
            if ("slow_down".equals(error)) {
                interval += 5;
                continue;
            }
            throw refused(a);
        }
        throw new CliException(Exit.NOT_ALLOWED, "not signed in within " + Times.age(timeout) + ": try again");
    }

    private JsonNode browser(String authorize, String tokenEndpoint, String clientId, String secret, String scope) {
        String verifier = random(32);
        String state = random(16);
        CompletableFuture<Map<String, String>> callback = new CompletableFuture<>();
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new CliException(
                    Exit.FAILED, "cannot listen on the loopback interface for the sign-in: " + e.getMessage());
        }
        server.createContext("/callback", x -> {
            Map<String, String> q = form(x.getRequestURI().getRawQuery());
            boolean ok = q.containsKey("code") && state.equals(q.get("state"));
            byte[] page = ("<!doctype html><title>lifelinectl</title><p>"
                            + (ok
                                    ? "Signed in: you can close this tab and " + "go back to the terminal."
                                    : "Sign-in failed: " + esc(q.getOrDefault("error", "unexpected answer")))
                            + "</p>")
                    .getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            x.sendResponseHeaders(ok ? 200 : 400, page.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(page);
            }
            callback.complete(q);
        });
        server.start();
        try {
            String redirect = "http://127.0.0.1:" + server.getAddress().getPort() + "/callback";
            Map<String, String> q = new LinkedHashMap<>();
            q.put("response_type", "code");
            q.put("client_id", clientId);
            q.put("redirect_uri", redirect);
            q.put("scope", scope == null ? "openid offline_access" : scope);
            q.put("state", state);
            q.put("code_challenge", challenge(verifier));
            q.put("code_challenge_method", "S256");
            String url = authorize + (authorize.contains("?") ? "&" : "?") + encode(q);
            term.err().println("To sign in, open this address in your browser (opening it now):");
            term.err().println("  " + url);
            term.err().flush();
            browser.open(url);
            Map<String, String> answer = callback.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!state.equals(answer.get("state"))) {
                throw new CliException(Exit.NOT_ALLOWED, "the sign-in answer's state does not match: not signed in");
            }
            if (answer.get("code") == null) {
                throw new CliException(
                        Exit.NOT_ALLOWED,
                        "the provider refused the sign-in: " + answer.getOrDefault("error", "?")
                                + (answer.get("error_description") == null
                                        ? ""
                                        : ": " + answer.get("error_description")));
            }
            Map<String, String> form = client(clientId, secret);
            form.put("grant_type", "authorization_code");
            form.put("code", answer.get("code"));
            form.put("redirect_uri", redirect);
            form.put("code_verifier", verifier);
            return post(tokenEndpoint, form);
        } catch (TimeoutException e) {
            throw new CliException(Exit.NOT_ALLOWED, "not signed in within " + Times.age(timeout) + ": try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        } catch (ExecutionException e) {
            throw new CliException(Exit.FAILED, "the sign-in failed: " + e.getCause());
        } finally {
            server.stop(0);
        }
    }

    /** The access token of a context that signed in through single sign-on, refreshed (and saved) when it expired. */
    static String accessToken(Config.Context ctx, Config config, Terminal term) {
        ObjectNode sso = ctx.sso;
        Instant expires = Times.parse(Json.text(sso, "expires-at"));
        String access = Json.text(sso, "access-token");
        if (access != null && expires != null && Instant.now().plusSeconds(30).isBefore(expires)) {
            return access;
        }
        String refresh = Json.text(sso, "refresh-token");
        String endpoint = Json.text(sso, "token-endpoint");
        if (refresh == null || endpoint == null) {
            throw new CliException(
                    Exit.NOT_ALLOWED,
                    "the single sign-on session of context '" + ctx.name + "' has expired: "
                            + "run 'lifelinectl login --context " + ctx.name + "'");
        }
        Sso s = new Sso(term, Duration.ofSeconds(30), url -> {});
        Map<String, String> form = client(Json.text(sso, "client-id"), Json.text(sso, "client-secret"));
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refresh);
        Answer a = s.request("POST", endpoint, form);
        if (a.status != 200) {
            throw new CliException(
                    Exit.NOT_ALLOWED,
                    "the single sign-on session of context '" + ctx.name + "' could not be " + "renewed ("
                            + Formats.or(Json.text(a.body, "error")) + "): run 'lifelinectl login --context " + ctx.name
                            + "'");
        }
        store(sso, a.body);
        config.save();
        return Json.text(sso, "access-token");
    }

    private static Map<String, String> client(String clientId, String secret) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("client_id", clientId);
        if (secret != null) {
            m.put("client_secret", secret);
        }
        return m;
    }

    private JsonNode post(String url, Map<String, String> form) {
        Answer a = request("POST", url, form);
        if (a.status != 200) {
            throw refused(a);
        }
        return a.body;
    }

    private static CliException refused(Answer a) {
        String error = Json.text(a.body, "error");
        String desc = Json.text(a.body, "error_description");
        return new CliException(
                Exit.NOT_ALLOWED,
                "the provider refused the sign-in (HTTP " + a.status + "): " + Formats.or(error)
                        + (desc == null ? "" : ": " + desc));
    }

    /** A provider's answer. */
    private record Answer(int status, JsonNode body) {}

    private Answer request(String method, String url, Map<String, String> form) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setRequestMethod(method);
            c.setConnectTimeout(10_000);
            c.setReadTimeout(30_000);
            c.setRequestProperty("Accept", "application/json");
            if (form != null) {
                byte[] body = encode(form).getBytes(StandardCharsets.UTF_8);
                c.setDoOutput(true);
                c.setRequestProperty("Content-Type", "application/x-www-form-urlencoded");
                c.setFixedLengthStreamingMode(body.length);
                try (OutputStream o = c.getOutputStream()) {
                    o.write(body);
                }
            }
            int status = c.getResponseCode();
            String text;
            try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
                text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            JsonNode body;
            try {
                body = text.isBlank() ? Json.object() : Json.MAPPER.readTree(text);
            } catch (IOException e) {
                body = Json.object().put("error", "HTTP " + status + ", not JSON");
            }
            if ("GET".equals(method) && status != 200) {
                throw new CliException(Exit.FAILED, "the provider answered " + status + " to " + url);
            }
            return new Answer(status, body);
        } catch (IOException e) {
            throw new CliException(
                    Exit.UNREACHABLE, "cannot reach the identity provider at " + url + ": " + e.getMessage(), e);
        }
    }

    static String encode(Map<String, String> form) {
        StringBuilder b = new StringBuilder();
        form.forEach((k, v) -> {
            if (v != null) {
                b.append(b.length() == 0 ? "" : "&")
                        .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                        .append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return b.toString();
    }

    static Map<String, String> form(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return m;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            m.put(
                    URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return m;
    }

    static String challenge(String verifier) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        }
    }

    /** Opens a URL with $BROWSER, xdg-open or open; where none works the printed address is enough. */
    static Browser systemBrowser(Terminal term) {
        return url -> {
            String env = term.env("BROWSER");
            String[][] tries =
                    env != null ? new String[][] {{env, url}} : new String[][] {{"xdg-open", url}, {"open", url}};
            for (String[] cmd : tries) {
                try {
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
                    return;
                } catch (IOException e) {
                    // try the next one; the address is printed anyway
                }
            }
        };
    }
}
