package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code storage} and {@code storage TARGET} against a canned server, and the storage lines of {@code advice}. */
class StorageCommandTest {

    static final String TARGET = "{\"target\":\"/fsx\",\"namespaces\":[\"ml\"],\"jobs\":2,\"writingJobs\":2,"
            + "\"keptBytes\":73014444032,\"keptCheckpoints\":5,\"bandwidthMedian\":10485760,\"bandwidthP10\":5242880,"
            + "\"bandwidthSamples\":5,\"freeBytes\":85899345920,\"capacityBytes\":1099511627776,"
            + "\"freeReportedAt\":\"2026-03-01T10:00:00Z\",\"netBytesPerHour\":51539607552,\"secondsUntilFull\":6000,"
            + "\"largestRecentBytes\":21474836480,\"lastWriteAt\":\"2026-03-01T10:00:00Z\",\"writers\":["
            + "{\"job\":\"ml/llm\",\"namespace\":\"ml\",\"keptBytes\":64424509440,\"keptCheckpoints\":3,"
            + "\"bytesPerCheckpoint\":21474836480,\"intervalSeconds\":1800,\"bandwidthMedian\":10485760,"
            + "\"netBytesPerHour\":42949672960,\"writing\":true,\"lastSaveAt\":\"2026-03-01T10:00:00Z\"}]}";

    @TempDir
    Path dir;

    private FakeServer server;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        server = new FakeServer();
        env = Map.of(
                "LIFELINECONFIG",
                dir.resolve("config.yaml").toString(),
                "LIFELINE_URL",
                server.url(),
                "LIFELINE_TOKEN",
                "llt_test00000001_secret",
                "HOME",
                dir.toString());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CliRun.Result run(String... args) {
        return CliRun.run(env, "", args);
    }

    @Test
    void storageListsTheTargetsWithBandwidthFreeSpaceAndTimeUntilFull() {
        server.on("GET /api/v1/storage", Reply.json("[" + TARGET + "]"));
        CliRun.Result r = run("storage");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("TARGET", "FULL IN", "/fsx", "68.0 GiB", "10.0 MiB/s", "5.0 MiB/s", "80.0 GiB", "48.0 GiB");
        assertThat(r.out()).containsPattern("1 h 40 min|1h40m|100 min");
    }

    @Test
    void storageOfATargetShowsItsJobsAndJsonIsTheServersAnswer() {
        server.on("GET /api/v1/storage//fsx", Reply.json(TARGET));
        CliRun.Result r = run("storage", "/fsx");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Target:", "/fsx", "80.0 GiB of 1.0 TiB", "ml/llm", "20.0 GiB", "yes");
        CliRun.Result json = run("storage", "/fsx", "-o", "json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"secondsUntilFull\"");
    }

    @Test
    void anEmptyFleetSaysNoTargetIsKnown() {
        server.on("GET /api/v1/storage", Reply.json("[]"));
        CliRun.Result r = run("storage");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("No storage target known yet");
    }
}
