package io.lifeline.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * A small OpenID Connect provider for tests: discovery, signing keys (JWKS), the authorization endpoint (it signs in
 * whoever {@link #signInAs} names, without a form) and the token endpoint of the authorization code flow. It signs
 * RS256 tokens with a fresh key, so quarkus-oidc verifies them exactly as it would a real provider's.
 */
public final class TestIdentityProvider implements AutoCloseable {

    public static final String CLIENT_ID = "lifeline";
    public static final String CLIENT_SECRET = "test-client-secret-0123456789-abcdefghijklmnop";

    /** Who the provider signs in next: a username and their groups. */
    public record Person(String username, List<String> groups) {}

    private final HttpServer server;
    private final RsaJsonWebKey key;
    private final String issuer;
    private final Map<String, Map<String, Object>> codes = new ConcurrentHashMap<>();
    private volatile Person next = new Person("nobody", List.of());
    private final java.util.concurrent.atomic.AtomicInteger signIns = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger pkceExchanges =
            new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger signOuts = new java.util.concurrent.atomic.AtomicInteger();

    private TestIdentityProvider(HttpServer server, RsaJsonWebKey key) {
        this.server = server;
        this.key = key;
        this.issuer = "http://localhost:" + server.getAddress().getPort();
    }

    public static TestIdentityProvider start() throws IOException, JoseException {
        RsaJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
        key.setKeyId("test-key-1");
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        TestIdentityProvider idp = new TestIdentityProvider(server, key);
        server.createContext("/.well-known/openid-configuration", idp::discovery);
        server.createContext("/jwks", idp::jwks);
        server.createContext("/authorize", idp::authorize);
        server.createContext("/token", idp::token);
        server.createContext("/logout", idp::logout);
        server.start();
        return idp;
    }

    public String issuer() {
        return issuer;
    }

    /** How many times the authorization endpoint signed someone in. */
    public int signIns() {
        return signIns.get();
    }

    /** How many times a client sent someone to the end-session endpoint with an ID token hint. */
    public int signOuts() {
        return signOuts.get();
    }

    /** The person the authorization endpoint signs in from now on. */
    public void signInAs(String username, String... groups) {
        next = new Person(username, List.of(groups));
    }

    /** An access token for automation: signed by this provider, valid for {@code ttl} (negative: already expired). */
    public String accessToken(String username, Duration ttl, String... groups) {
        return sign(key, claims(username, List.of(groups), ttl, null));
    }

    /** An access token signed by this provider but issued for another application ({@code aud}). */
    public String accessTokenForAudience(String audience, String username, String... groups) {
        JwtClaims c = claims(username, List.of(groups), Duration.ofMinutes(5), null);
        c.setAudience(audience);
        c.setClaim("azp", audience);
        return sign(key, c);
    }

    /** An access token signed by this provider with {@code alg} (an RSA algorithm) instead of RS256. */
    public String accessTokenSignedWith(String alg, String username, String... groups) {
        return sign(key, claims(username, List.of(groups), Duration.ofMinutes(5), null), alg);
    }

    /** An access token signed by this provider, issued {@code ahead} from now (a provider whose clock is fast). */
    public String accessTokenIssuedAhead(Duration ahead, String username, String... groups) {
        JwtClaims c = claims(username, List.of(groups), Duration.ofMinutes(5).plus(ahead), null);
        c.setIssuedAt(NumericDate.fromSeconds(Instant.now().plus(ahead).getEpochSecond()));
        return sign(key, c);
    }

    /** A well-formed token for the same people, signed by a key this provider never published. */
    public String tokenFromAnotherProvider(String username, String... groups) {
        try {
            RsaJsonWebKey other = RsaJwkGenerator.generateJwk(2048);
            other.setKeyId(key.getKeyId());
            return sign(other, claims(username, List.of(groups), Duration.ofMinutes(5), null));
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private JwtClaims claims(String username, List<String> groups, Duration ttl, String nonce) {
        JwtClaims c = new JwtClaims();
        c.setIssuer(issuer);
        c.setSubject("sub-" + username);
        c.setAudience(CLIENT_ID);
        c.setClaim("azp", CLIENT_ID);
        Instant now = Instant.now();
        c.setIssuedAt(NumericDate.fromSeconds(now.getEpochSecond() - (ttl.isNegative() ? 600 : 0)));
        c.setExpirationTime(NumericDate.fromSeconds(now.plus(ttl).getEpochSecond()));
        c.setClaim("preferred_username", username);
        c.setStringListClaim("groups", groups);
        if (nonce != null) {
            c.setClaim("nonce", nonce);
        }
        return c;
    }

    private static String sign(RsaJsonWebKey signer, JwtClaims claims) {
        return sign(signer, claims, AlgorithmIdentifiers.RSA_USING_SHA256);
    }

    private static String sign(RsaJsonWebKey signer, JwtClaims claims, String alg) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(signer.getPrivateKey());
        jws.setKeyIdHeaderValue(signer.getKeyId());
        jws.setAlgorithmHeaderValue(alg);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private void discovery(HttpExchange x) throws IOException {
        json(
                x,
                200,
                "{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
                        + "\"token_endpoint\":\"" + issuer + "/token\",\"jwks_uri\":\"" + issuer + "/jwks\","
                        + "\"end_session_endpoint\":\"" + issuer + "/logout\","
                        + "\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
                        + "\"id_token_signing_alg_values_supported\":[\"RS256\"],"
                        + "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\",\"client_secret_post\"]}");
    }

    private void jwks(HttpExchange x) throws IOException {
        json(x, 200, new JsonWebKeySet(key).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
    }

    private void authorize(HttpExchange x) throws IOException {
        Map<String, String> q = form(x.getRequestURI().getRawQuery());
        if (!CLIENT_ID.equals(q.get("client_id"))
                || q.get("redirect_uri") == null
                || !"code".equals(q.get("response_type"))) {
            json(x, 400, "{\"error\":\"invalid_request\"}");
            return;
        }
        String code = UUID.randomUUID().toString();
        Map<String, Object> grant = new HashMap<>();
        grant.put("person", next);
        grant.put("redirect_uri", q.get("redirect_uri"));
        // PKCE (RFC 7636), as providers require of public clients and recommend to all: S256 only.
        if (q.get("code_challenge") == null || !"S256".equals(q.get("code_challenge_method"))) {
            json(x, 400, "{\"error\":\"invalid_request\",\"error_description\":\"PKCE (S256) required\"}");
            return;
        }
        grant.put("code_challenge", q.get("code_challenge"));
        if (q.get("nonce") != null) {
            grant.put("nonce", q.get("nonce"));
        }
        codes.put(code, grant);
        signIns.incrementAndGet();
        String to = q.get("redirect_uri") + (q.get("redirect_uri").contains("?") ? "&" : "?") + "code=" + code
                + (q.get("state") == null ? "" : "&state=" + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8));
        x.getResponseHeaders().add("Location", to);
        x.sendResponseHeaders(302, -1);
        x.close();
    }

    private void logout(HttpExchange x) throws IOException {
        Map<String, String> q = form(x.getRequestURI().getRawQuery());
        if (q.get("id_token_hint") != null) {
            signOuts.incrementAndGet();
        }
        String back = q.get("post_logout_redirect_uri");
        if (back == null) {
            json(x, 200, "{\"signedOut\":true}");
            return;
        }
        x.getResponseHeaders()
                .add(
                        "Location",
                        back
                                + (q.get("state") == null
                                        ? ""
                                        : (back.contains("?") ? "&" : "?") + "state="
                                                + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8)));
        x.sendResponseHeaders(302, -1);
        x.close();
    }

    private void token(HttpExchange x) throws IOException {
        Map<String, String> f = form(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String auth = x.getRequestHeaders().getFirst("Authorization");
        String basic = "Basic "
                + Base64.getEncoder()
                        .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        boolean client = basic.equals(auth) || CLIENT_SECRET.equals(f.get("client_secret"));
        Map<String, Object> grant = codes.remove(f.getOrDefault("code", ""));
        if (!client
                || grant == null
                || !"authorization_code".equals(f.get("grant_type"))
                || !grant.get("redirect_uri").equals(f.get("redirect_uri"))
                || !grant.get("code_challenge").equals(s256(f.get("code_verifier")))) {
            json(x, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        pkceExchanges.incrementAndGet();
        Person p = (Person) grant.get("person");
        String nonce = (String) grant.get("nonce");
        String id = sign(key, claims(p.username(), p.groups(), Duration.ofMinutes(5), nonce));
        String access = sign(key, claims(p.username(), p.groups(), Duration.ofMinutes(5), null));
        json(
                x,
                200,
                "{\"access_token\":\"" + access + "\",\"id_token\":\"" + id + "\",\"token_type\":\"Bearer\","
                        + "\"expires_in\":300}");
    }

    private static String s256(String verifier) {
        if (verifier == null) {
            return "";
        }
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Codes exchanged with a code verifier matching the challenge given at /authorize. */
    public int pkceExchanges() {
        return pkceExchanges.get();
    }

    private static Map<String, String> form(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return m;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            m.put(k, v);
        }
        return m;
    }

    private static void json(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
