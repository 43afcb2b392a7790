package io.lifeline.alert;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver as a team would write one, on a free port: it verifies each delivery's signature, answers
 * the first {@code failuresPerKey} attempts of every idempotency key with 500, then 200, and remembers everything.
 */
final class TestWebhookReceiver implements AutoCloseable {

    /** One request as received, with the receiver's verdict on its signature at arrival. */
    record Request(
            String idempotencyKey,
            String timestamp,
            String signature,
            byte[] body,
            int answered,
            WebhookSignature.Result verdict) {}

    private final HttpServer server;
    private final String secret;
    private final int failuresPerKey;
    private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    TestWebhookReceiver(String secret, int failuresPerKey) throws IOException {
        this.secret = secret;
        this.failuresPerKey = failuresPerKey;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    private void handle(HttpExchange x) throws IOException {
        byte[] body;
        try (InputStream in = x.getRequestBody()) {
            body = in.readAllBytes();
        }
        String key = x.getRequestHeaders().getFirst(WebhookSignature.IDEMPOTENCY_HEADER);
        String ts = x.getRequestHeaders().getFirst(WebhookSignature.TIMESTAMP_HEADER);
        String sig = x.getRequestHeaders().getFirst(WebhookSignature.SIGNATURE_HEADER);
        WebhookSignature.Result verdict =
                WebhookSignature.verify(secret, ts, body, sig, Instant.now(), Duration.ofMinutes(5));
        int n = seen.computeIfAbsent(String.valueOf(key), k -> new AtomicInteger())
                .incrementAndGet();
        int status = verdict != WebhookSignature.Result.VALID ? 401 : n <= failuresPerKey ? 500 : 200;
        requests.add(new Request(key, ts, sig, body, status, verdict));
        x.sendResponseHeaders(status, -1);
        x.close();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
