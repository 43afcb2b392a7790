package io.lifeline.it;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged application started as a user starts it ({@code java -jar}), with its embedded defaults. */
final class LifelineProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private String token;

    private LifelineProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static LifelineProcess start(Path workDir, Path log, String... properties) throws IOException {
        return start(freePort(), workDir, log, properties);
    }

    /** A port nothing listens on now. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts it on {@code port} (to come back where its clients expect it after a stop). */
    static LifelineProcess start(int port, Path workDir, Path log, String... properties) throws IOException {
        String jar = System.getProperty("lifeline.jar", "target/quarkus-app/quarkus-run.jar");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        cmd.add("-Dquarkus.http.port=" + port);
        cmd.addAll(List.of(properties));
        cmd.add("-jar");
        cmd.add(new File(jar).getAbsolutePath());
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().remove("QUARKUS_DATASOURCE_JDBC_URL");
        return new LifelineProcess(pb.start(), port);
    }

    /** Sends {@code apiToken} as the bearer token on every later request. */
    void useToken(String apiToken) {
        this.token = apiToken;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String contentType, String body) throws IOException, InterruptedException {
        return http.send(
                request(path)
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> put(String path, String contentType, String body) throws IOException, InterruptedException {
        return http.send(
                request(path)
                        .header("Content-Type", contentType)
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(20));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    /** Waits until readiness answers UP; fails if the process dies or the time runs out. */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Lifeline exited with " + process.exitValue() + " before being ready");
            }
            try {
                if (get("/q/health/ready").statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("Lifeline not ready within " + timeout);
    }

    /** Stops it the way a user or Kubernetes does (SIGTERM) and returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("Lifeline did not stop within 60 s of SIGTERM");
        }
        return process.exitValue();
    }

    /** Waits for it to exit by itself; the exit code, or empty when it still runs after {@code timeout}. */
    java.util.OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? java.util.OptionalInt.of(process.exitValue())
                : java.util.OptionalInt.empty();
    }

    /** Where it listens, for clients started by the test. */
    String url() {
        return "http://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
