package io.lifeline.connector.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One instant query through Prometheus' HTTP API ({@code GET /api/v1/query}): the value of a scalar, or the largest
 * sample of a vector (0 for an empty vector: nothing is waiting). Follows no redirect; an error answer is thrown
 * with Prometheus' own {@code errorType} and {@code error}.
 */
public final class PrometheusQueries {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 4 * 1024 * 1024;

    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    public PrometheusQueries(String baseUrl, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The query's value now. */
    public double value(String promql) throws IOException, InterruptedException {
        URI uri = base.resolve("api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.body().length > MAX_BODY) {
            throw new IOException("answer of " + r.body().length + " bytes is over " + MAX_BODY);
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IOException("HTTP " + r.statusCode() + ", not a Prometheus answer");
        }
        if (!"success".equals(body.path("status").asText())) {
            throw new IOException("HTTP " + r.statusCode() + " " + body.path("errorType").asText("error") + ": "
                    + body.path("error").asText("no reason given"));
        }
        return valueOf(body.path("data"));
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
