package io.lifeline.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A stand-in for a server (Lifeline or an identity provider): canned answers by method and path, requests recorded. */
final class FakeServer implements AutoCloseable {

    /** An answer. */
    record Reply(int status, String contentType, String body) {
        static Reply json(String body) {
            return new Reply(200, "application/json", body);
        }

        static Reply problem(int status, String title, String detail) {
            return new Reply(
                    status,
                    "application/problem+json",
                    "{\"type\":\"/problems/x\",\"title\":\"" + title + "\",\"status\":" + status + ",\"detail\":\""
                            + detail + "\"}");
        }
    }

    /** A request as received. */
    record Request(String method, String uri, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    /** Computes an answer from the request. */
    interface Handler {
        Reply handle(Request r);
    }

    private final HttpServer server;
    private final Map<String, Handler> routes = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::serve);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers {@code METHOD /path} (the path without its query). */
    FakeServer on(String methodAndPath, Handler h) {
        routes.put(methodAndPath, h);
        return this;
    }

    FakeServer on(String methodAndPath, Reply r) {
        return on(methodAndPath, req -> r);
    }

    private void serve(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Request r = new Request(
                x.getRequestMethod(), x.getRequestURI().toString(), Map.copyOf(x.getRequestHeaders()), body);
        requests.add(r);
        Handler h = routes.get(x.getRequestMethod() + " " + x.getRequestURI().getPath());
        Reply reply = h == null
                ? Reply.problem(
                        404, "Not Found", "no route " + x.getRequestURI().getPath())
                : h.handle(r);
        byte[] b = reply.body().getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", reply.contentType());
        x.sendResponseHeaders(reply.status(), b.length == 0 ? -1 : b.length);
        try (OutputStream o = x.getResponseBody()) {
            o.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
