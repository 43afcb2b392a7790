package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Storage targets through real ingest: two jobs of two namespaces save to one file system; the storage API shows the
 * bytes kept, the bandwidth, the free space and the time until full, a caller limited to one namespace sees only its
 * job's figures, and the interval advice says the storage cannot sustain the job's interval, with the one it can.
 */
@QuarkusTest
class StorageApiTest {

    private static final long GB = 1_000_000_000L;

    private static String event(String type, String job, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), "agent/" + job, type, job, t, data);
    }

    private static String saved(String job, Instant t, String root, int step, long bytes, int seconds, String extra) {
        return event(
                "trainer.checkpoint.completed",
                job,
                t,
                "{\"checkpointId\":\"step-" + step + "\",\"step\":" + step + ",\"bytes\":" + bytes
                        + ",\"durationSeconds\":" + seconds + ",\"blockingSeconds\":1,\"async\":true,\"uri\":\"" + root
                        + "/" + job + "/step-" + step + "\"" + extra + "}");
    }

    private static JsonPath get(RequestSpecification as, String path) {
        return given(as).get(path).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void targetsFromRealIngestScopedByNamespaceWithFeasibleAdvice() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String root = "/stapi-" + suffix;
        String nsA = "stapia" + suffix;
        String nsB = "stapib" + suffix;
        String a = nsA + "/llm";
        String b = nsB + "/vit";
        Instant t = Instant.now().minus(Duration.ofMinutes(120)).truncatedTo(ChronoUnit.SECONDS);
        Instant t30 = t.plus(Duration.ofMinutes(30));
        Instant t60 = t.plus(Duration.ofMinutes(60));
        // Job a saves 20 GB every 30 min in 2,000 s (10 MB/s); job b 4 GB every 30 min in 400 s (10 MB/s), and reads
        // 100,000 GB free of 1,000,000 GB on its second save (room enough: the storage-filling alert stays quiet for
        // the other tests of this application).
        List<String> events = List.of(
                event("job.submitted", a, t, "{\"namespace\":\"" + nsA + "\"}"),
                event("job.submitted", b, t, "{\"namespace\":\"" + nsB + "\"}"),
                saved(a, t, root, 1, 20 * GB, 2000, ""),
                saved(b, t30, root, 1, 4 * GB, 400, ""),
                saved(a, t30, root, 2, 20 * GB, 2000, ""),
                saved(
                        b,
                        t60,
                        root,
                        2,
                        4 * GB,
                        400,
                        ",\"freeBytes\":" + 100_000 * GB + ",\"capacityBytes\":" + 1_000_000 * GB),
                saved(a, t60, root, 3, 20 * GB, 2000, ""));
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);

        RequestSpecification admin = TestTokens.asAdmin();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(get(admin, "/api/v1/storage").getList("target", String.class))
                        .contains(root));
        JsonPath all = get(admin, "/api/v1/storage/" + root.substring(1));
        assertThat(all.getString("target")).isEqualTo(root);
        assertThat(all.getInt("jobs")).isEqualTo(2);
        // Kept: a's three (retention 3) 60 GB, b's two 8 GB.
        assertThat(all.getLong("keptBytes")).isEqualTo(68 * GB);
        assertThat(all.getDouble("bandwidthMedian")).isCloseTo(1e7, within(1.0));
        // b read 100,000 GB free when 48 GB were kept (a 40, b 8); a kept 20 GB more since: 99,980 GB free now.
        assertThat(all.getLong("freeBytes")).isEqualTo(99_980 * GB);
        assertThat(all.getLong("capacityBytes")).isEqualTo(1_000_000 * GB);
        // a adds 20 + 20 GB over 60 min = 40 GB/h, b 4 GB over 30 min = 8 GB/h: 48 GB/h;
        // 99,980 / 48 h = 2,082.9 h = 7,498,500 s.
        assertThat(all.getDouble("netBytesPerHour")).isCloseTo(48.0 * GB, within(1.0));
        assertThat(all.getDouble("secondsUntilFull")).isCloseTo(7_498_500.0, within(1.0));
        // As lifelinectl sends it: URL-encoded, slash included.
        assertThat(given(admin)
                        .urlEncodingEnabled(false)
                        .get("/api/v1/storage/%2F" + root.substring(1))
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("target"))
                .isEqualTo(root);

        RequestSpecification onlyA = TestTokens.auth(TestTokens.create("storage-" + suffix, Role.VIEWER, List.of(nsA)));
        JsonPath scoped = get(onlyA, "/api/v1/storage/" + root.substring(1));
        assertThat(scoped.getInt("jobs")).isEqualTo(1);
        assertThat(scoped.getLong("keptBytes")).isEqualTo(60 * GB);
        assertThat(scoped.getList("writers.job", String.class)).containsExactly(a);
        assertThat(get(onlyA, "/api/v1/storage").getList("target", String.class))
                .contains(root);
        RequestSpecification other =
                TestTokens.auth(TestTokens.create("storage-other-" + suffix, Role.VIEWER, List.of("nobody" + suffix)));
        given(other).get("/api/v1/storage/" + root.substring(1)).then().statusCode(404);
        assertThat(get(other, "/api/v1/storage").getList("target", String.class))
                .doesNotContain(root);

        // a's interval (observed, 1,800 s) needs 20 GB / 1,800 s = 11.1 MB/s, with b's 4 GB / 1,800 s = 2.2 MB/s:
        // 13.3 MB/s > the 10 MB/s shown. It sustains 20 GB / (10 − 2.22) MB/s = 2,571.4 s.
        JsonPath advice = get(admin, "/api/v1/jobs/" + a + "/advice");
        List<Map<String, Object>> storage = advice.getList("storage");
        assertThat(storage).singleElement().satisfies(f -> {
            assertThat(f.get("target")).isEqualTo(root);
            assertThat(f.get("feasible")).isEqualTo(false);
            assertThat(((Number) f.get("intervalSeconds")).doubleValue()).isCloseTo(1800.0, within(1e-6));
            assertThat(((Number) f.get("requiredBytesPerSecond")).doubleValue())
                    .isCloseTo(20e9 / 1800 + 4e9 / 1800, within(10.0)); // read back as a float
            assertThat(((Number) f.get("sustainableSeconds")).doubleValue())
                    .isCloseTo(20e9 / (1e7 - 4e9 / 1800), within(0.01));
        });
        assertThat(advice.getList("notes", String.class))
                .anySatisfy(n -> assertThat(n).contains("storage " + root, "sustains an interval of 2571 s or longer"));
    }
}
