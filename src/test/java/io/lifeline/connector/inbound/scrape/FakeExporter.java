package io.lifeline.connector.inbound.scrape;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real HTTP server on a free loopback port, standing in for dcgm-exporter: {@code /metrics} serves whatever body
 * is set (real scrape fixtures), {@code /hang} accepts and never answers, {@code /garbage} answers an HTML page.
 */
public final class FakeExporter implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final AtomicReference<byte[]> body = new AtomicReference<>(new byte[0]);
    private final CountDownLatch closing = new CountDownLatch(1);

    public FakeExporter() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/metrics", ex -> send(ex, "text/plain; version=0.0.4; charset=utf-8", body.get()));
        server.createContext(
                "/garbage",
                ex -> send(
                        ex,
                        "text/html",
                        "<html><body>502 Bad Gateway</body></html>\n".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/hang", ex -> {
            try {
                closing.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(pool);
        server.start();
    }

    public FakeExporter serve(byte[] metrics) {
        body.set(metrics);
        return this;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static void send(HttpExchange ex, String type, byte[] bytes) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        pool.shutdownNow();
    }
}
