package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The REST API of one Lifeline server ({@code /api/v1}), over {@link HttpURLConnection} (it starts faster than
 * {@code java.net.http}). Answers of 400 and above become an {@link ApiException} carrying the problem document's
 * title and detail; a server that cannot be reached becomes exit code 5.
 */
final class Api {

    /** An answer: status, the headers Lifeline's clients care about, and the body as JSON (null when empty). */
    record Answer(int status, JsonNode body, Map<String, String> headers) {}

    private final String base;
    private final Supplier<String> token;
    private final Duration timeout;

    Api(String server, Supplier<String> token, Duration timeout) {
        String s = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        if (!s.startsWith("http://") && !s.startsWith("https://")) {
            throw CliException.usage("the server must be an http:// or https:// URL, got '" + server + "'");
        }
        this.base = s;
        this.token = token;
        this.timeout = timeout;
    }

    String server() {
        return base;
    }

    /** {@code /api/v1/jobs/vision/vit} from the segments {@code jobs}, {@code vision}, {@code vit}, each encoded. */
    static String path(String... segments) {
        StringBuilder b = new StringBuilder("/api/v1");
        for (String s : segments) {
            b.append('/').append(URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return b.toString();
    }

    /** Adds the query parameters that have a value. */
    static String query(String path, Map<String, ?> params) {
        StringBuilder b = new StringBuilder(path);
        char sep = path.contains("?") ? '&' : '?';
        for (Map.Entry<String, ?> e : params.entrySet()) {
            if (e.getValue() == null || e.getValue().toString().isBlank()) {
                continue;
            }
            b.append(sep)
                    .append(e.getKey())
                    .append('=')
                    .append(URLEncoder.encode(e.getValue().toString(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return b.toString();
    }

    static Map<String, Object> params(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    JsonNode get(String path) {
        return send("GET", path, null, null).body();
    }

    Answer post(String path, JsonNode body, String idempotencyKey) {
        return send("POST", path, body, idempotencyKey);
    }

    /**
     * A POST that changes nothing (a computation such as a what-if): its answer's body; a 400 to it is a usage error,
     * as for a read.
     */
    JsonNode compute(String path, JsonNode body) {
        try {
            return post(path, body, null).body();
        } catch (ApiException e) {
            throw new ApiException(e.status(), e.title(), e.detail(), e.problem(), false);
        }
    }

    Answer put(String path, JsonNode body) {
        return send("PUT", path, body, null);
    }

    Answer delete(String path) {
        return send("DELETE", path, null, null);
    }

    /**
     * Sends one request. A request with an idempotency key is retried (twice, after half a second and a second) when
     * the connection fails, since the server answers a repeated key with the action it already created.
     */
    Answer send(String method, String path, JsonNode body, String idempotencyKey) {
        int attempts = idempotencyKey == null ? 1 : 3;
        IOException last = null;
        for (int i = 0; i < attempts; i++) {
            if (i > 0) {
                sleep(500L * i);
            }
            try {
                return once(method, path, body, idempotencyKey);
            } catch (IOException e) {
                last = e;
            }
        }
        throw unreachable(last);
    }

    private Answer once(String method, String path, JsonNode body, String idempotencyKey) throws IOException {
        HttpURLConnection c =
                (HttpURLConnection) URI.create(base + path).toURL().openConnection();
        c.setRequestMethod(method);
        c.setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        c.setReadTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(timeout.toMillis(), 30_000)));
        c.setInstanceFollowRedirects(false);
        c.setRequestProperty("Accept", "application/json, application/problem+json");
        c.setRequestProperty("User-Agent", "lifelinectl/" + Main.version());
        String t = token.get();
        if (t != null && !t.isBlank()) {
            c.setRequestProperty("Authorization", "Bearer " + t.trim());
        }
        if (idempotencyKey != null) {
            c.setRequestProperty("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            c.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream o = c.getOutputStream()) {
                o.write(bytes);
            }
        }
        int status = c.getResponseCode();
        String text;
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : new String[] {"Location", "Idempotency-Replayed", "Retry-After", "Content-Type"}) {
            if (c.getHeaderField(h) != null) {
                headers.put(h, c.getHeaderField(h));
            }
        }
        if (status >= 400) {
            throw problem(method, status, text, headers);
        }
        if (status >= 300) {
            throw new CliException(
                    Exit.FAILED,
                    "the server redirected " + method + " " + path + " to " + c.getHeaderField("Location") + ": is "
                            + base + " the Lifeline URL (not the dashboard's sign-in)?");
        }
        JsonNode json = text.isBlank() ? null : Json.parse(text);
        return new Answer(status, json, headers);
    }

    private ApiException problem(String method, int status, String text, Map<String, String> headers) {
        JsonNode doc = null;
        if (!text.isBlank()) {
            try {
                doc = Json.MAPPER.readTree(text);
            } catch (IOException ignored) {
                doc = null;
            }
        }
        String title = doc != null && doc.isObject() ? Json.text(doc, "title") : null;
        String detail = doc != null && doc.isObject() ? Json.text(doc, "detail") : null;
        if (title == null && detail == null) {
            title = "HTTP " + status;
            detail = text.isBlank() ? null : text.length() > 200 ? text.substring(0, 200) + "..." : text.strip();
        }
        if (status == 429 && headers.get("Retry-After") != null) {
            detail = (detail == null ? "" : detail + " ") + "(retry after " + headers.get("Retry-After") + " s)";
        }
        return new ApiException(status, title, detail, doc, !"GET".equals(method));
    }

    private CliException unreachable(IOException e) {
        String why;
        if (e instanceof ConnectException) {
            why = "connection refused";
        } else if (e instanceof UnknownHostException) {
            why = "unknown host " + e.getMessage();
        } else if (e instanceof SocketTimeoutException) {
            why = "no answer within " + Times.age(timeout);
        } else if (e instanceof NoRouteToHostException) {
            why = "no route to host";
        } else {
            why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        return new CliException(
                Exit.UNREACHABLE,
                "cannot reach Lifeline at " + base + ": " + why
                        + " (is it running? the server comes from --server, the context, or LIFELINE_URL)",
                e);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
