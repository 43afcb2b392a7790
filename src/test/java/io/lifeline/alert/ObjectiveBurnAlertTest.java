package io.lifeline.alert;

import static io.lifeline.testing.TestTokens.asAdmin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.testing.ObjectiveSets;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The burn-rate alerts through the real pipeline: objectives set through the API, a history of samples on a moved
 * clock (three good days, then a fast burn for one objective and a slow one for another), Lifeline's alert evaluation,
 * and a real Alertmanager. The fast burn pages (critical), the slow one warns without paging, the healthy objective
 * fires nothing.
 */
@QuarkusTest
class ObjectiveBurnAlertTest {

    private static final long MINUTE = 60_000L;

    @Inject
    ObjectiveService objectives;

    @Inject
    AlertReceivers receivers;

    /** Cumulative GPU time of one job of 8 GPUs. */
    private static final class Job {
        final String name;
        long productive;
        long lost;

        Job(String name) {
            this.name = name;
        }

        void minute(double productiveShare) {
            long p = Math.round(MINUTE * 8 * productiveShare);
            productive += p;
            lost += MINUTE * 8 - p;
        }

        JobSample sample() {
            Map<Bucket, Long> g = new EnumMap<>(Bucket.class);
            g.put(Bucket.PRODUCTIVE, productive);
            g.put(Bucket.RECOVERY_RESTART, lost);
            String ns = name.substring(0, name.indexOf('/'));
            return new JobSample(name, ns, null, null, g, Map.of(), null);
        }
    }

    @Test
    void aFastBurnPagesASlowBurnWarnsAndAHealthyObjectiveIsQuiet() throws Exception {
        String previous = ObjectiveSets.current();
        try (AlertDeliveryTest.TestAlertmanager am = AlertDeliveryTest.TestAlertmanager.start()) {
            receivers.register(new Receiver("objectives-alertmanager", ReceiverKind.ALERTMANAGER, am.url(), null));
            try {
                given(asAdmin())
                        .contentType(ContentType.JSON)
                        .body("{\"objectives\":["
                                + "{\"name\":\"burn-fast\",\"scope\":\"namespace:burn-fast\",\"ettrTarget\":0.95,"
                                + "\"window\":\"7d\"},"
                                + "{\"name\":\"burn-slow\",\"scope\":\"namespace:burn-slow\",\"ettrTarget\":0.95,"
                                + "\"window\":\"7d\"},"
                                + "{\"name\":\"burn-none\",\"scope\":\"namespace:burn-none\",\"ettrTarget\":0.95,"
                                + "\"window\":\"7d\"}]}")
                        .put("/api/v1/objectives")
                        .then()
                        .statusCode(200);
                objectives.replay(history(Instant.now().truncatedTo(ChronoUnit.MINUTES)));

                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !am.alertsWith("objective", "burn-fast").isEmpty()
                                && !am.alertsWith("objective", "burn-slow").isEmpty());
                List<JsonNode> fast = am.alertsWith("objective", "burn-fast");
                assertThat(fast).hasSize(1);
                assertThat(fast.get(0).get("labels").get("alertname").asText()).isEqualTo("GoodputBudgetFastBurn");
                assertThat(fast.get(0).get("labels").get("severity").asText()).isEqualTo("critical");
                assertThat(fast.get(0).get("annotations").get("description").asText())
                        .containsPattern("burns its error budget at x1[56](\\.\\d+)? over the last 1h");
                List<JsonNode> slow = am.alertsWith("objective", "burn-slow");
                assertThat(slow).hasSize(1);
                assertThat(slow.get(0).get("labels").get("alertname").asText()).isEqualTo("GoodputBudgetSlowBurn");
                assertThat(slow.get(0).get("labels").get("severity").asText()).isEqualTo("warning");
                // A few more evaluations: the healthy one stays quiet, the slow one never pages.
                Thread.sleep(3000);
                assertThat(am.alertsWith("objective", "burn-none")).isEmpty();
                assertThat(am.alertsWith("objective", "burn-slow")).hasSize(1);
            } finally {
                receivers.remove("objectives-alertmanager");
                ObjectiveSets.restore(previous);
            }
        }
    }

    /**
     * Three good days sampled hourly, then seven hours a minute apart up to {@code now}: the fast job makes 20 %
     * productive progress for its last 70 minutes (error 0.8, burn 0.8 / 0.05 = 16 over 1 h and 5 min), the slow
     * one 65 % all seven hours (burn 7 over 6 h and 30 min), the healthy one 99 % (burn 0.2).
     */
    private static SortedMap<Instant, List<JobSample>> history(Instant now) {
        Job fast = new Job("burn-fast/llm");
        Job slow = new Job("burn-slow/llm");
        Job none = new Job("burn-none/llm");
        SortedMap<Instant, List<JobSample>> out = new TreeMap<>();
        Instant start = now.minus(Duration.ofHours(7)).minus(Duration.ofDays(3));
        out.put(start, List.of(fast.sample(), slow.sample(), none.sample()));
        for (int h = 1; h <= 72; h++) {
            for (int m = 0; m < 60; m++) {
                fast.minute(1);
                slow.minute(1);
                none.minute(1);
            }
            out.put(start.plus(Duration.ofHours(h)), List.of(fast.sample(), slow.sample(), none.sample()));
        }
        for (int m = 7 * 60 - 1; m >= 0; m--) {
            fast.minute(m < 70 ? 0.2 : 1);
            slow.minute(0.65);
            none.minute(0.99);
            out.put(now.minus(Duration.ofMinutes(m)), List.of(fast.sample(), slow.sample(), none.sample()));
        }
        return out;
    }
}
