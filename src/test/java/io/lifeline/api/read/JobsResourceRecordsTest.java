package io.lifeline.api.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A job with more incidents and checkpoints than memory keeps (100 each): without a cursor the answer is what memory
 * holds, as before, with a {@code Link rel="next"} header; following it pages back through the stored ones, each page
 * oldest first, none lost or repeated, in the latest version of each (closed incidents, completed checkpoints).
 */
@QuarkusTest
class JobsResourceRecordsTest {

    private static final int CYCLES = 160;
    private static final Instant T0 = Instant.parse("2026-03-04T08:00:00Z");
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>; rel=\"next\"");

    /** Runs a job on one node; each cycle a checkpoint starts and completes, then a worker fails and the job recovers. */
    private static String jobWithManyRecords(String name) {
        String job = "recs/" + name;
        String node = name + "-node";
        List<String> events = new ArrayList<>();
        events.add(CloudEvents.nodeRegistered(CloudEvents.uniqueId(), node, T0));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "job.submitted",
                job,
                T0,
                "{\"namespace\":\"recs\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,"
                        + "\"maxRestarts\":1000},\"gpusPerNode\":8}"));
        events.add(rendezvous(job, node, T0.plusSeconds(10), 1));
        for (int i = 1; i <= CYCLES; i++) {
            Instant t = T0.plusSeconds(i * 100L);
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/trainer",
                    "trainer.checkpoint.started",
                    job,
                    t,
                    "{\"checkpointId\":\"ckpt-" + i + "\",\"step\":" + i * 100 + "}"));
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/trainer",
                    "trainer.checkpoint.completed",
                    job,
                    t.plusSeconds(5),
                    "{\"checkpointId\":\"ckpt-" + i + "\",\"step\":" + i * 100
                            + ",\"durationSeconds\":5.0,\"blockingSeconds\":1.0}"));
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/trainer",
                    "trainer.worker_failed",
                    job,
                    t.plusSeconds(20),
                    "{\"runId\":\"run\",\"rank\":0,\"node\":\"" + node + "\",\"exitCode\":1}"));
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/trainer",
                    "trainer.restarted",
                    job,
                    t.plusSeconds(30),
                    "{\"runId\":\"run\",\"restartCount\":" + i + "}"));
            events.add(rendezvous(job, node, t.plusSeconds(40), i + 1));
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/trainer",
                    "trainer.progress",
                    job,
                    t.plusSeconds(50),
                    "{\"step\":" + (i * 100 + 50) + ",\"samplesPerSecond\":100.0}"));
        }
        for (int from = 0; from < events.size(); from += 200) {
            TestTokens.api()
                    .contentType(ContentType.JSON)
                    .body(CloudEvents.array(events.subList(from, Math.min(events.size(), from + 200))))
                    .post("/api/v1/events")
                    .then()
                    .statusCode(200);
        }
        return job;
    }

    private static String rendezvous(String job, String node, Instant at, int round) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/trainer",
                "trainer.rendezvous",
                job,
                at,
                "{\"runId\":\"run\",\"round\":" + round + ",\"worldSize\":8,\"participants\":[{\"node\":\"" + node
                        + "\",\"firstRank\":0,\"rankCount\":8}]}");
    }

    private static String next(Response r) {
        String link = r.header("Link");
        if (link == null) {
            return null;
        }
        Matcher m = NEXT.matcher(link);
        assertThat(m.find()).as(link).isTrue();
        return m.group(1);
    }

    /** Every record from {@code first} on, following the Link headers; pages go back in time, each oldest first. */
    private static List<Map<String, Object>> all(String first, String listPath) {
        List<List<Map<String, Object>>> pages = new ArrayList<>();
        String url = first;
        while (url != null) {
            Response r = TestTokens.api().get(url);
            r.then().statusCode(200);
            pages.add(0, r.jsonPath().getList(listPath));
            url = next(r);
            assertThat(pages.size()).isLessThan(100);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        pages.forEach(out::addAll);
        return out;
    }

    private static void awaitCount(String first, String listPath, int n) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (all(first, listPath).size() < n && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
    }

    @Test
    void incidentsPageBackThroughTheStoredOnes() {
        String job = jobWithManyRecords("incidents");
        String base = "/api/v1/jobs/" + job + "/incidents";
        awaitCount(base, "$", CYCLES);

        // The first page without a cursor is what memory holds (the newest 100 closed), as before, and links on.
        Response first = TestTokens.api().get(base);
        first.then().statusCode(200);
        List<Map<String, Object>> memory = first.jsonPath().getList("$");
        assertThat(memory).hasSize(100);
        assertThat(memory.get(0).get("id")).isEqualTo(job + "#" + (CYCLES - 99));
        assertThat(next(first)).isNotNull();

        for (String start : List.of(base, base + "?limit=7", base + "?limit=1000")) {
            List<Map<String, Object>> incidents = all(start, "$");
            assertThat(incidents)
                    .as(start)
                    .extracting(i -> i.get("id"))
                    .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, CYCLES)
                            .mapToObj(i -> job + "#" + i)
                            .toList());
            // Stored incidents are the closed version, with the fields of those from memory.
            assertThat(incidents.get(0).get("closedAt")).isNotNull();
            assertThat(incidents.get(0).get("outcome"))
                    .isEqualTo(incidents.get(CYCLES - 1).get("outcome"));
            assertThat(incidents.get(0).keySet())
                    .isEqualTo(incidents.get(CYCLES - 1).keySet());
        }
        TestTokens.api().get(base + "?cursor=not-a-cursor").then().statusCode(400);
    }

    @Test
    void checkpointsPageBackThroughTheStoredOnesInTheirLatestState() {
        String job = jobWithManyRecords("checkpoints");
        String base = "/api/v1/jobs/" + job + "/checkpoints";
        awaitCount(base, "checkpoints", CYCLES);

        Response first = TestTokens.api().get(base);
        first.then().statusCode(200);
        assertThat(first.jsonPath().getList("checkpoints")).hasSize(100);
        assertThat(first.jsonPath().getString("job")).isEqualTo(job);

        for (String start : List.of(base, base + "?limit=9")) {
            List<Map<String, Object>> checkpoints = all(start, "checkpoints");
            assertThat(checkpoints)
                    .as(start)
                    .extracting(c -> c.get("id"))
                    .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, CYCLES)
                            .mapToObj(i -> "ckpt-" + i)
                            .toList());
            // Started, then completed: the stored version is the completed one.
            assertThat(checkpoints).extracting(c -> c.get("status")).containsOnly("completed");
            assertThat(checkpoints.get(0).keySet())
                    .isEqualTo(checkpoints.get(CYCLES - 1).keySet());
        }
    }
}
