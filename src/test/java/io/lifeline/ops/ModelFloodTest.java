package io.lifeline.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.metrics.ModelMetrics;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.FigureFile;
import io.lifeline.testing.SmallModelProfile;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The job flood, as the security probe sent it: namespace-limited ingest tokens submit jobs by the hundred. The model
 * takes them up to its limits (per namespace, then fleet-wide), refuses the rest one by one ({@code limit_reached},
 * counted by reason), and the jobs it holds go on; {@code /metrics} publishes series of their own for a bounded number
 * of jobs. Heap after GC and the size of {@code /metrics} are measured before and after (written to
 * {@code target/benchmarks/model-flood.json}): they grow by what the limits allow, not by what was sent.
 */
@QuarkusTest
@TestProfile(SmallModelProfile.class)
class ModelFloodTest {

    @Inject
    ModelMetrics metrics;

    private final String tag = UUID.randomUUID().toString().substring(0, 6);
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static String submitted(String job) {
        String ns = job.substring(0, job.indexOf('/'));
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "flood/" + ns,
                "job.submitted",
                job,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,"
                        + "\"maxNodes\":2,\"procsPerNode\":8,\"maxRestarts\":3},\"gpusPerNode\":8}");
    }

    /** Posts {@code n} new jobs of {@code ns} with {@code token}; answers how many the model applied. */
    private JsonPath flood(String token, String ns, int from, int n) {
        List<String> events = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            events.add(submitted(ns + "/job-" + i));
        }
        return given(TestTokens.auth(token))
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private String scrape() throws Exception {
        metrics.refresh();
        return given().header("Accept", "text/plain")
                .get("/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(200);
            used = Math.min(
                    used,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static double notApplied(String metricsText, String type) {
        return metricsText
                .lines()
                .filter(l -> l.startsWith("lifeline_ingest_not_applied_events_total{")
                        && l.contains("reason=\"limit_reached\"")
                        && l.contains("type=\"" + type + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static long count(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void aJobFloodStopsAtTheLimitsIsRefusedEventByEventAndMetricsStayBounded() throws Exception {
        String before = scrape();
        long heapBefore = usedAfterGc();
        double refusedBefore = notApplied(before, "job.submitted");

        String[] ns = {"flood-a-" + tag, "flood-b-" + tag, "flood-c-" + tag};
        int sent = 0;
        int applied = 0;
        // Namespace A sends three times its limit, in batches like the probe's.
        for (int batch = 0; batch < 3; batch++) {
            JsonPath r = flood(
                    TestTokens.create("flood-a-" + tag + batch, Role.INGEST, List.of(ns[0])), ns[0], batch * 120, 120);
            sent += 120;
            applied += r.getInt("applied");
            assertThat(r.getInt("accepted")).isEqualTo(120);
            List<Map<String, Object>> refused = r.getList("notApplied");
            assertThat(refused == null ? 0 : refused.size()).isEqualTo(120 - r.getInt("applied"));
            assertThat(refused == null ? List.<Map<String, Object>>of() : refused)
                    .allSatisfy(n -> {
                        assertThat(n.get("reason")).isEqualTo("limit_reached");
                        assertThat((String) n.get("detail")).contains("namespace " + ns[0]);
                    });
        }
        assertThat(applied).isEqualTo(SmallModelProfile.MAX_JOBS_PER_NAMESPACE);
        // Namespaces B and C take their share, then the fleet-wide limit holds.
        int fleetRoom = SmallModelProfile.MAX_JOBS - SmallModelProfile.MAX_JOBS_PER_NAMESPACE;
        for (int i = 1; i < ns.length; i++) {
            JsonPath r = flood(TestTokens.create("flood-" + i + tag, Role.INGEST, List.of(ns[i])), ns[i], 0, 150);
            sent += 150;
            int took = r.getInt("applied");
            applied += took;
            assertThat(took).isEqualTo(Math.min(SmallModelProfile.MAX_JOBS_PER_NAMESPACE, fleetRoom));
            fleetRoom -= took;
        }
        assertThat(applied).isEqualTo(SmallModelProfile.MAX_JOBS);
        JsonPath last = flood(TestTokens.create("flood-c2-" + tag, Role.INGEST, List.of(ns[2])), ns[2], 500, 10);
        assertThat(last.getList("notApplied.detail", String.class))
                .allMatch(d -> d.contains("lifeline.model.limits.max-jobs"));
        sent += 10;

        // The jobs held go on: one ends, and its namespace takes a new one.
        given(TestTokens.asIngest())
                .contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "flood",
                        "job.finished",
                        ns[0] + "/job-0",
                        now,
                        "{\"outcome\":\"succeeded\"}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        assertThat(flood(TestTokens.ingest(), ns[0], 1000, 1).getInt("applied")).isEqualTo(1);

        String after = scrape();
        long heapAfter = usedAfterGc();
        double refused = notApplied(after, "job.submitted") - refusedBefore;
        assertThat(refused).isEqualTo(sent - applied);
        long jobSeries = count(after, "lifeline_job_state{");
        assertThat(jobSeries).isLessThanOrEqualTo(SmallModelProfile.MAX_JOB_SERIES);
        for (String n : ns) {
            assertThat(after.lines()
                            .filter(l -> l.startsWith("lifeline_job_state{") && l.contains(n))
                            .count())
                    .as(n)
                    .isLessThanOrEqualTo(SmallModelProfile.MAX_JOB_SERIES_PER_NAMESPACE);
        }
        assertThat(after).contains("lifeline_metrics_jobs_without_series");

        FigureFile figures = new FigureFile("model-flood", "./mvnw -o test -Dtest=ModelFloodTest");
        figures.sampleLoad();
        figures.add("flood_jobs_sent", "jobs", List.of((double) sent), null);
        figures.add("flood_jobs_held", "jobs", List.of((double) applied), null);
        figures.add(
                "flood_heap_growth_bytes_per_job_held",
                "bytes",
                List.of((heapAfter - heapBefore) / (double) applied),
                null);
        figures.add("flood_metrics_bytes_before", "bytes", List.of((double) before.length()), null);
        figures.add("flood_metrics_bytes_after", "bytes", List.of((double) after.length()), null);
        figures.add(
                "flood_metrics_bytes_per_job_with_series",
                "bytes",
                List.of((after.length() - before.length()) / (double) Math.max(1, jobSeries)),
                null);
        figures.write();
    }

    @Test
    void nodesStopAtTheirLimitToo() {
        int applied = 0;
        List<String> events = new ArrayList<>();
        for (int i = 0; i < SmallModelProfile.MAX_NODES + 20; i++) {
            events.add(CloudEvents.nodeRegistered(CloudEvents.uniqueId(), "flood-node-" + tag + "-" + i, now));
        }
        JsonPath r = TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        applied += r.getInt("applied");
        assertThat(applied).isLessThanOrEqualTo(SmallModelProfile.MAX_NODES);
        assertThat(r.getList("notApplied.reason", String.class))
                .hasSizeGreaterThanOrEqualTo(20)
                .allMatch("limit_reached"::equals);
    }
}
