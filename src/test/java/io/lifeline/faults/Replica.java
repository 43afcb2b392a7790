package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One Lifeline JVM, the packaged application started as a user starts it ({@code java -jar}). */
final class Replica {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3))
            .build();

    private final String name;
    private final Path dir;
    private final String jar;
    private final int port;
    private final List<String> properties;
    private final Path tokenFile;
    private Child process;
    private int starts;

    Replica(String name, Path dir, String jar, int port, Path tokenFile, List<String> properties) {
        this.name = name;
        this.dir = dir;
        this.jar = jar;
        this.port = port;
        this.tokenFile = tokenFile;
        this.properties = properties;
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    Child process() {
        return process;
    }

    boolean alive() {
        return process != null && process.alive();
    }

    long pid() {
        return process.pid();
    }

    /** Starts the JVM; {@link #awaitReady} waits for it. */
    void start() throws IOException {
        try {
            Waits.portFree(port);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> cmd = new ArrayList<>(List.of(
                KafkaBroker.java(),
                "-Xms256m",
                "-Xmx900m",
                "-XX:+UseG1GC",
                "-Dquarkus.http.port=" + port,
                "-Dlifeline.security.bootstrap-token-file=" + tokenFile));
        cmd.addAll(properties);
        cmd.add("-jar");
        cmd.add(jar);
        starts++;
        process = Child.start(name, cmd, dir, dir.resolve("lifeline-" + name + ".log"), Map.of());
    }

    /** Waits until readiness answers UP; fails if the process dies or the time runs out. */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.alive()) {
                throw new IllegalStateException(name + " exited before being ready; see " + process.log());
            }
            try {
                if (status("/q/health/ready") == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + "; see " + process.log());
    }

    /** The first admin token, which the replica that created the schema wrote. */
    String token() throws IOException {
        return Files.readString(tokenFile).trim();
    }

    int status(String path) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(url() + path))
                .timeout(Duration.ofSeconds(5))
                .build();
        return HTTP.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Readiness data of the ingest check ({@code logPosition}, {@code appliedEvents}...), or null when unreachable. */
    JsonNode ingestHealth() {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create(url() + "/q/health/ready"))
                    .timeout(Duration.ofSeconds(5))
                    .build();
            JsonNode health = JSON.readTree(
                    HTTP.send(r, HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode check : health.path("checks")) {
                if ("ingest".equals(check.path("name").asText())) {
                    return check.path("data");
                }
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /** A GET with the admin token; the body as JSON, or null with any status but 200. */
    JsonNode get(String path, String token) throws IOException, InterruptedException {
        HttpResponse<String> resp = HTTP.send(
                HttpRequest.newBuilder(URI.create(url() + path))
                        .header("Authorization", "Bearer " + token)
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return resp.statusCode() == 200 ? JSON.readTree(resp.body()) : null;
    }

    /**
     * A counter or gauge of {@code /metrics}, summed over its series; 0 when absent. Scraped with the admin token:
     * with an external database (production configuration) {@code /metrics} needs one.
     */
    double metric(String name) throws IOException, InterruptedException {
        HttpResponse<String> resp = HTTP.send(
                HttpRequest.newBuilder(URI.create(url() + "/metrics"))
                        .header("Authorization", "Bearer " + token())
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
            throw new IllegalStateException("/metrics answered " + resp.statusCode() + ": " + resp.body());
        }
        double sum = 0;
        for (String line : resp.body().split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGTERM, as Kubernetes stops a pod; waits up to a minute. */
    void stop() throws InterruptedException {
        if (process != null) {
            process.stop("TERM", Duration.ofSeconds(60));
        }
    }

    void kill() throws InterruptedException {
        process.kill();
    }

    /** SIGSTOP: the JVM stops dead (a long GC pause, a frozen VM); {@link #resume} lets it go on. */
    void pause() {
        process.signal("STOP");
    }

    void resume() {
        process.signal("CONT");
    }

    int starts() {
        return starts;
    }
}
