package io.lifeline.ingest;

import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Events that reach the gateway without the codec (connectors build them directly) and that PostgreSQL refuses: the
 * store narrows the batch down to them, names each with the database's reason, and keeps the rest; nothing is retried
 * forever and the next batch goes through.
 */
@QuarkusTest
class StoreRefusalTest {

    @Inject
    IngestPipeline pipeline;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static Event cordoned(String id, String source, String node, Instant time) {
        return new Event(id, source, EventType.NODE_CORDONED, node, time, new NodeData.Cordoned("test"));
    }

    private static List<String> storedIds(String subject) {
        return given(auth(TestTokens.viewer()))
                .queryParam("subject", subject)
                .queryParam("limit", 1000)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("events.id");
    }

    @Test
    void eventsTheDatabaseRefusesAreNamedAndTheOthersStored() throws Exception {
        String node = "refusal-" + CloudEvents.uniqueId().substring(0, 8);
        List<Event> batch = new ArrayList<>();
        List<String> good = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = node + "-" + i;
            if (i == 7) {
                batch.add(cordoned(id + "\u0000", "test/refusal", node, now));
            } else if (i == 23) {
                batch.add(cordoned(id, "test/refusal", node, Instant.parse("0000-01-01T00:00:00Z")));
            } else if (i == 24) {
                batch.add(cordoned(id, "test/\u0000refusal", node, now));
            } else {
                batch.add(cordoned(id, "test/refusal", node, now.plusMillis(i)));
                good.add(id);
            }
        }
        IngestReceipt receipt = pipeline.submit(batch).toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(receipt.accepted()).isEqualTo(37);
        assertThat(receipt.duplicates()).isZero();
        assertThat(receipt.rejected()).extracting(Refusal::index).containsExactly(7, 23, 24);
        assertThat(receipt.rejected())
                .extracting(Refusal::id)
                .containsExactly(node + "-7\u0000", node + "-23", node + "-24");
        assertThat(receipt.rejected())
                .allSatisfy(r -> assertThat(r.reason())
                        .startsWith("refused by the event store: ")
                        .containsPattern("\\(SQLSTATE 22[0-9A-Z]{3}\\)$"));
        assertThat(receipt.rejected().get(1).reason()).contains("out of range");
        assertThat(storedIds(node)).containsExactlyInAnyOrderElementsOf(good);

        // Nothing is left behind: the next submission is stored at once, and a corrected resend is new.
        IngestReceipt next = pipeline.submit(List.of(
                        cordoned(node + "-next", "test/refusal", node, now),
                        cordoned(node + "-23", "test/refusal", node, now)))
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        assertThat(next.accepted()).isEqualTo(2);
        assertThat(next.rejected()).isEmpty();
    }
}
