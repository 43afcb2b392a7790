package io.lifeline.connector.inbound.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.connector.inbound.scrape.LimitedBody;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Instant queries through Prometheus' HTTP API ({@code GET /api/v1/query}), which Thanos, VictoriaMetrics and Mimir
 * serve alike: the value of a scalar or the largest sample of a vector (0 for an empty vector: nothing is waiting),
 * or the raw answer for a caller that reads the whole vector. Follows no redirect; an error answer is thrown with
 * Prometheus' own {@code errorType} and {@code error}; an answer over the size limit is abandoned.
 */
public final class PrometheusQueries {

    private static final ObjectMapper JSON = Json.mapper();
    private static final int MAX_BODY = 4 * 1024 * 1024;

    /**
     * How to reach a Prometheus that asks for more than a URL.
     *
     * @param headers  sent with every request, asked for anew each time (a bearer token file may rotate)
     * @param ssl      the TLS trust to use, or null for the JVM's
     * @param maxBody  the largest answer read, in bytes
     */
    public record Access(Supplier<Map<String, String>> headers, SSLContext ssl, int maxBody) {
        static final Access NONE = new Access(Map::of, null, MAX_BODY);
    }

    private final URI base;
    private final Duration timeout;
    private final HttpClient http;
    private final Access access;
    private final LimitedBody body;

    public PrometheusQueries(String baseUrl, Duration timeout) {
        this(baseUrl, timeout, Access.NONE);
    }

    public PrometheusQueries(String baseUrl, Duration timeout, Access access) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.access = access;
        this.body = new LimitedBody(access.maxBody());
        HttpClient.Builder b =
                HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
        if (access.ssl() != null) {
            b.sslContext(access.ssl());
        }
        this.http = b.build();
    }

    /** The query's value now. */
    public double value(String promql) throws IOException, InterruptedException {
        return valueOf(JSON.readTree(raw(promql, null)).path("data"));
    }

    /**
     * The successful answer's bytes ({@code {"status":"success","data":...}}) of an instant query evaluated at
     * {@code time} (null: now).
     */
    public byte[] raw(String promql, Instant time) throws IOException, InterruptedException {
        String q = "api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8);
        if (time != null) {
            q += "&time=" + time.getEpochSecond()
                    + (time.getNano() == 0 ? "" : String.format(".%03d", time.getNano() / 1_000_000));
        }
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(q)).timeout(timeout).GET().header("Accept", "application/json");
        access.headers().get().forEach(request::header);
        HttpResponse<byte[]> r = http.send(request.build(), body);
        JsonNode answer;
        try {
            answer = r.statusCode() == 200 ? null : JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IOException("HTTP " + r.statusCode() + ", not a Prometheus answer");
        }
        if (answer != null) {
            throw new IOException(
                    "HTTP " + r.statusCode() + " " + answer.path("errorType").asText("error") + ": "
                            + answer.path("error").asText("no reason given"));
        }
        return r.body();
    }

    /** The value of a query's {@code data}: a scalar, or the largest sample of a vector. */
    static double valueOf(JsonNode data) throws IOException {
        String type = data.path("resultType").asText();
        JsonNode result = data.path("result");
        switch (type) {
            case "scalar":
                return number(result);
            case "vector":
                double max = 0;
                boolean any = false;
                for (JsonNode sample : result) {
                    double v = number(sample.path("value"));
                    max = any ? Math.max(max, v) : v;
                    any = true;
                }
                return max;
            default:
                throw new IOException("a query of type " + type + " has no single value; use a scalar or vector query");
        }
    }

    /** A {@code [time, "value"]} pair's value; NaN counts as no demand. */
    private static double number(JsonNode pair) throws IOException {
        if (!pair.isArray() || pair.size() != 2) {
            throw new IOException("not a [time, value] pair: " + pair);
        }
        String v = pair.get(1).asText();
        try {
            double d = Double.parseDouble(v.replace("+Inf", "Infinity").replace("-Inf", "-Infinity"));
            return Double.isNaN(d) ? 0 : d;
        } catch (NumberFormatException e) {
            throw new IOException("not a number: " + v);
        }
    }
}
