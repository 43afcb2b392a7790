package io.lifeline.api.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.page.Cursor;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A job with more timeline entries than memory keeps (500): paging with the cursor continues into the entries read
 * from PostgreSQL, in time order, none lost or repeated, the same shape as the in-memory pages, and {@code from}/
 * {@code to} filter the stored entries too.
 */
@QuarkusTest
class JobsResourceHistoryTest {

    private static final int UPDATES = 700;
    private static final Instant T0 = Instant.parse("2026-03-02T08:00:00Z");

    /** Submits a job and sends {@code UPDATES} job.updated events a second apart: one timeline entry each. */
    private static String jobWithLongHistory(String name) {
        String job = "hist/" + name;
        List<String> events = new ArrayList<>();
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "job.submitted",
                job,
                T0,
                "{\"namespace\":\"hist\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,\"maxRestarts\":10},"
                        + "\"gpusPerNode\":8}"));
        for (int i = 1; i <= UPDATES; i++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/k8s",
                    "job.updated",
                    job,
                    T0.plusSeconds(i),
                    "{\"checkpointIntervalSeconds\":" + (600 + i) + "}"));
        }
        // Two batches, so the ring overflows between writes as well as within one.
        for (List<String> part : List.of(events.subList(0, 300), events.subList(300, events.size()))) {
            TestTokens.api()
                    .contentType(ContentType.JSON)
                    .body(CloudEvents.array(part))
                    .post("/api/v1/events")
                    .then()
                    .statusCode(200);
        }
        return job;
    }

    private static JsonPath page(String job, Map<String, Object> params) {
        return TestTokens.api()
                .queryParams(params)
                .get("/api/v1/jobs/" + job + "/timeline")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** Every entry from the first page on, following the cursor. */
    private static List<Map<String, Object>> all(String job, Map<String, Object> params) {
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Object> p = new java.util.HashMap<>(params);
        String cursor = null;
        int pages = 0;
        do {
            if (cursor != null) {
                p.put("cursor", cursor);
            }
            JsonPath page = page(job, p);
            List<Map<String, Object>> entries = page.getList("entries");
            assertThat(entries.size()).isLessThanOrEqualTo((Integer) p.getOrDefault("limit", 100));
            out.addAll(entries);
            cursor = page.getString("nextCursor");
            assertThat(++pages).isLessThan(1000);
        } while (cursor != null);
        return out;
    }

    private static int awaitAll(String job) {
        long deadline = System.currentTimeMillis() + 30_000;
        int n;
        do {
            n = all(job, Map.of("limit", 1000)).size();
        } while (n < UPDATES + 1 && System.currentTimeMillis() < deadline);
        return n;
    }

    @Test
    void pagingContinuesIntoStoredEntriesWithNoneLostOrRepeated() {
        String job = jobWithLongHistory("long");
        assertThat(awaitAll(job)).isEqualTo(UPDATES + 1);

        List<Map<String, Object>> entries = all(job, Map.of("limit", 37));
        // job.submitted and 700 job.updated, no state changes: one entry each.
        assertThat(entries).hasSize(UPDATES + 1);
        Set<Long> seqs = new HashSet<>();
        for (Map<String, Object> e : entries) {
            assertThat(seqs.add(((Number) e.get("seq")).longValue()))
                    .as("repeated %s", e)
                    .isTrue();
        }
        assertThat(entries.get(0).get("type")).isEqualTo("job.submitted");
        assertThat(entries.get(0).get("time")).isEqualTo(T0.toString());
        for (int i = 1; i < entries.size(); i++) {
            assertThat(Instant.parse((String) entries.get(i).get("time")))
                    .as("entry %d in time order", i)
                    .isEqualTo(T0.plusSeconds(i));
            assertThat(entries.get(i).get("type")).isEqualTo("job.updated");
        }
        // Stored entries have the shape of those from memory: the same fields, the incident link included.
        assertThat(entries.get(0).keySet())
                .isEqualTo(entries.get(entries.size() - 1).keySet());
        // And one big page is the same list as the small ones.
        assertThat(all(job, Map.of("limit", 1000))).isEqualTo(entries);
    }

    @Test
    void fromAndToFilterStoredEntriesToo() {
        String job = jobWithLongHistory("window");
        assertThat(awaitAll(job)).isEqualTo(UPDATES + 1);
        // Seconds 50..149 are long gone from memory (it keeps the last 500: seconds 201..700).
        List<Map<String, Object>> window = all(
                job,
                Map.of(
                        "from",
                        T0.plusSeconds(50).toString(),
                        "to",
                        T0.plusSeconds(150).toString(),
                        "limit",
                        30));
        assertThat(window).hasSize(100);
        assertThat(window.get(0).get("time")).isEqualTo(T0.plusSeconds(50).toString());
        assertThat(window.get(99).get("time")).isEqualTo(T0.plusSeconds(149).toString());
        // A window across the seam between stored and in-memory entries.
        List<Map<String, Object>> seam = all(
                job,
                Map.of(
                        "from",
                        T0.plusSeconds(150).toString(),
                        "to",
                        T0.plusSeconds(250).toString(),
                        "limit",
                        7));
        assertThat(seam)
                .extracting(e -> e.get("time"))
                .containsExactlyElementsOf(java.util.stream.IntStream.range(150, 250)
                        .mapToObj(i -> T0.plusSeconds(i).toString())
                        .toList());
    }

    @Test
    void aBadCursorIsABadRequestAndAnEarlierReleasesCursorStillPages() {
        String job = jobWithLongHistory("cursor");
        TestTokens.api()
                .queryParam("cursor", "not-a-cursor")
                .get("/api/v1/jobs/" + job + "/timeline")
                .then()
                .statusCode(400);
        assertThat(awaitAll(job)).isEqualTo(UPDATES + 1);
        // The plain millis:seq a client may still hold from an earlier release names the same place, into the stored
        // entries too (the first page ends at second 9, long gone from memory).
        String next = page(job, Map.of("limit", 10)).getString("nextCursor");
        long[] key = Cursor.longs(next, 2);
        assertThat(key[0]).isEqualTo(T0.plusSeconds(9).toEpochMilli());
        List<Object> byCursor = page(job, Map.of("limit", 10, "cursor", next)).getList("entries.seq");
        List<Object> byPlain =
                page(job, Map.of("limit", 10, "cursor", key[0] + ":" + key[1])).getList("entries.seq");
        assertThat(byCursor).hasSize(10).isEqualTo(byPlain);
    }
}
