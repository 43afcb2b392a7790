package io.lifeline.connector.inbound.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.lifeline.config.PrometheusSourceConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus source's access settings as docs/connectors.md writes them, against a local HTTP(S) server that
 * records what it is sent: bearer token (fixed, or a file read before every query), basic authentication, further
 * headers, and an {@code https} URL trusted through {@code ca-file} (a certificate made by the JDK's keytool).
 */
class PrometheusAccessTest {

    private static final byte[] EMPTY_VECTOR =
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}"
                    .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private String serve(HttpServer s, String scheme) {
        server = s;
        s.createContext("/", exchange -> {
            Map<String, String> h = new HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), v.get(0)));
            h.put(":path", exchange.getRequestURI().toString());
            seen.add(h);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, EMPTY_VECTOR.length);
            exchange.getResponseBody().write(EMPTY_VECTOR);
            exchange.close();
        });
        s.start();
        return scheme + "://127.0.0.1:" + s.getAddress().getPort();
    }

    private static PrometheusSourceConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(PrometheusSourceConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build()
                .getConfigMapping(PrometheusSourceConfig.class);
    }

    private static void query(PrometheusSourceConfig c) throws Exception {
        new PrometheusQueries(
                        c.url().orElseThrow(),
                        c.timeout(),
                        new PrometheusQueries.Access(
                                PrometheusGpuSource.headers(c), PrometheusGpuSource.ssl(c), c.maxBodyBytes()))
                .raw(c.query(), null);
    }

    private String last(String header) {
        return seen.get(seen.size() - 1).get(header);
    }

    @Test
    void bearerTokenBasicAuthenticationAndHeadersAreSent() throws Exception {
        String url = serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), "http");
        query(config(Map.of(
                "lifeline.connectors.prometheus.url",
                url,
                "lifeline.connectors.prometheus.username",
                "lifeline",
                "lifeline.connectors.prometheus.password",
                "s3cret",
                "lifeline.connectors.prometheus.headers.\"X-Scope-OrgID\"",
                "fleet-a")));
        assertThat(last("authorization"))
                .isEqualTo("Basic "
                        + Base64.getEncoder().encodeToString("lifeline:s3cret".getBytes(StandardCharsets.UTF_8)));
        assertThat(last("x-scope-orgid")).isEqualTo("fleet-a");
        assertThat(last(":path")).startsWith("/api/v1/query?query=");

        // A bearer token wins over basic authentication.
        query(config(Map.of(
                "lifeline.connectors.prometheus.url",
                url,
                "lifeline.connectors.prometheus.bearer-token",
                "t0k",
                "lifeline.connectors.prometheus.username",
                "lifeline")));
        assertThat(last("authorization")).isEqualTo("Bearer t0k");
    }

    @Test
    void aBearerTokenFileIsReadBeforeEveryQuerySoARotatedTokenIsUsed() throws Exception {
        String url = serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), "http");
        Path token = dir.resolve("token");
        Files.writeString(token, "first\n");
        PrometheusSourceConfig c = config(Map.of(
                "lifeline.connectors.prometheus.url",
                url,
                "lifeline.connectors.prometheus.bearer-token-file",
                token.toString()));
        query(c);
        assertThat(last("authorization")).isEqualTo("Bearer first");
        Files.writeString(token, "second");
        query(c);
        assertThat(last("authorization")).isEqualTo("Bearer second");
    }

    @Test
    void anHttpsPrometheusIsTrustedThroughTheCaFileAndOnlyThen() throws Exception {
        Path keystore = dir.resolve("server.p12");
        Path cert = dir.resolve("ca.crt");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(
                keytool,
                "-genkeypair",
                "-alias",
                "prometheus",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=prometheus.monitoring",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit");
        run(
                keytool,
                "-exportcert",
                "-rfc",
                "-alias",
                "prometheus",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-file",
                cert.toString());
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keystore.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        String url = serve(https, "https");

        query(config(Map.of(
                "lifeline.connectors.prometheus.url",
                url,
                "lifeline.connectors.prometheus.ca-file",
                cert.toString(),
                "lifeline.connectors.prometheus.bearer-token",
                "t0k")));
        assertThat(last("authorization")).isEqualTo("Bearer t0k");
        assertThatThrownBy(() -> query(config(Map.of("lifeline.connectors.prometheus.url", url))))
                .isInstanceOf(SSLHandshakeException.class);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0)
                .as(String.join(" ", command) + ": " + out)
                .isTrue();
    }
}
