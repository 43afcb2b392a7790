package io.lifeline.ingest;

import static io.lifeline.testing.TestTokens.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.EventLogTail;
import io.lifeline.eventlog.EventLogWriter;
import io.lifeline.eventlog.LogStacks;
import io.lifeline.metrics.IngestMetricsForTests;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.lifeline.testing.CloudEvents;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas over one PostgreSQL: the application (replica A, events posted over HTTP) and a second pipeline, log
 * writer, follower and model built here (replica B). Whichever replica receives an event, both models apply it, and
 * each exactly once; a resend to the other replica, even with another time, is a duplicate.
 */
@QuarkusTest
class ReplicasShareTheFleetTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EventCodec codec;

    @Inject
    IngestConfig config;

    @Inject
    ModelRuntime modelA;

    @Inject
    EventLogTail followerA;

    private EventLogWriter writerB;
    private EventLogTail followerB;
    private ModelRuntime modelB;
    private IngestPipeline pipelineB;

    @BeforeEach
    void startReplicaB() throws Exception {
        Clock clock = Clock.systemUTC();
        writerB = LogStacks.writer(dataSource, codec, config);
        followerB = LogStacks.follower(dataSource, codec);
        modelB = ModelRuntimes.start(clock);
        pipelineB = new IngestPipeline(
                writerB,
                modelB,
                config,
                clock,
                new SimpleMeterRegistry(),
                IngestMetricsForTests.of(new SimpleMeterRegistry()));
        // Wired as the application wires replica A: each follower passes over its own replica's rows.
        modelB.onStoredQueued(followerB::appliedHere);
        EventLogTail.Sink sink = new EventLogTail.Sink() {
            @Override
            public void accept(List<Event> events, long[] seqs) {
                events.stream().filter(e -> e != null).forEach(pipelineB::rememberReplayed);
                modelB.enqueueFollowed(events, seqs, Duration.ofSeconds(30));
            }

            @Override
            public void passed(long through) {
                modelB.enqueuePassed(through, Duration.ofSeconds(30));
            }
        };
        followerB.catchUp(0, sink);
        pipelineB.open();
        followerB.follow(sink);
    }

    @AfterEach
    void stopReplicaB() {
        LogStacks.stop(writerB, followerB);
        ModelRuntimes.stop(modelB);
    }

    @Test
    void everyReplicaAppliesEveryEventOnceWhicheverReplicaReceivedIt() throws Exception {
        String run = CloudEvents.uniqueId().substring(0, 8);
        Instant now = Instant.now();
        List<String> toA = new ArrayList<>();
        List<String> nodesA = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String node = "share-a-" + run + "-" + i;
            nodesA.add(node);
            toA.add(CloudEvents.nodeRegistered("a-" + run + "-" + i, node, now));
        }
        List<Event> toB = new ArrayList<>();
        List<String> nodesB = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String node = "share-b-" + run + "-" + i;
            nodesB.add(node);
            toB.add(decode(CloudEvents.nodeRegistered("b-" + run + "-" + i, node, now)));
        }
        java.util.concurrent.atomic.AtomicLong appliedA = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong appliedB = new java.util.concurrent.atomic.AtomicLong();
        modelA.addApplyListener((e, outcome, m) -> {
            if (e.id().contains("-" + run + "-")) {
                appliedA.incrementAndGet();
            }
        });
        modelB.addApplyListener((e, outcome, m) -> {
            if (e.id().contains("-" + run + "-")) {
                appliedB.incrementAndGet();
            }
        });

        long passedA = followerA.passed();
        long followedA = followerA.followed();
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(toA))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        IngestReceipt b = pipelineB.submit(toB).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(b.accepted()).isEqualTo(100);

        List<String> all = new ArrayList<>(nodesA);
        all.addAll(nodesB);
        await().atMost(Duration.ofSeconds(20)).until(() -> known(modelA, all) == 200 && known(modelB, all) == 200);

        // The same events resent to the other replica, A's with a later time: duplicates, stored and applied nowhere.
        List<Event> resent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            resent.add(decode(CloudEvents.nodeRegistered("a-" + run + "-" + i, nodesA.get(i), now.plusSeconds(30))));
        }
        IngestReceipt again = pipelineB.submit(resent).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(again.accepted()).isZero();
        assertThat(again.duplicates()).isEqualTo(100);
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(toB.stream()
                        .map(e -> CloudEvents.nodeRegistered(e.id(), e.subject(), now.plusSeconds(60)))
                        .toList()))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", org.hamcrest.Matchers.equalTo(0));

        // Let the followers catch up with whatever there is, then count: exactly once on each replica.
        Thread.sleep(1_500);
        modelA.barrier().get(10, TimeUnit.SECONDS);
        modelB.barrier().get(10, TimeUnit.SECONDS);
        assertThat(appliedA).as("applied on A").hasValue(200);
        assertThat(appliedB).as("applied on B").hasValue(200);
        assertThat(stored(run)).as("stored once each").isEqualTo(200);
        // Each follower read the other replica's rows back, and moved past each of its own rows either without
        // reading it (the usual case) or, when its model had not yet been told of them, by reading it back too: which
        // of the two is a matter of timing, so only their sum is the outcome.
        assertThat(followerA.followed() - followedA).as("rows A read back").isGreaterThanOrEqualTo(100);
        assertThat(followerB.followed()).as("rows B read back").isGreaterThanOrEqualTo(100);
        assertThat(followerA.followed() - followedA + followerA.passed() - passedA)
                .as("rows A moved past")
                .isGreaterThanOrEqualTo(200);
        assertThat(followerB.followed() + followerB.passed())
                .as("rows B moved past")
                .isGreaterThanOrEqualTo(200);
    }

    @Test
    void aReplicaFrozenWhileItHoldsTheCommitOrderLockDoesNotStopTheOthersWrites() throws Exception {
        String url = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.datasource.jdbc.url", String.class);
        try (java.sql.Connection frozen = java.sql.DriverManager.getConnection(url, "postgres", "")) {
            LogStacks.takeCommitOrderLock(frozen);
            String run = CloudEvents.uniqueId().substring(0, 8);
            String node = "frozen-" + run;
            // Replica A's writer waits for the lock until the database ends the frozen transaction.
            given(asOperator())
                    .contentType("application/json")
                    .body(CloudEvents.array(List.of(CloudEvents.nodeRegistered("f-" + run, node, Instant.now()))))
                    .post("/api/v1/events")
                    .then()
                    .statusCode(200)
                    .body("accepted", org.hamcrest.Matchers.equalTo(1));
            await().atMost(Duration.ofSeconds(20)).until(() -> known(modelA, List.of(node)) == 1);
            // The frozen writer, once awake, finds its transaction ended: its batch fails and is written again.
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> frozen.createStatement().execute("SELECT 1"))
                    .isInstanceOf(java.sql.SQLException.class);
        }
    }

    private Event decode(String json) {
        return codec.decodeEvent(codec.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static long known(ModelRuntime model, List<String> nodes) throws Exception {
        return model.read(m -> nodes.stream()
                        .filter(n -> m.fleet().node(n).isPresent())
                        .count())
                .get(10, TimeUnit.SECONDS);
    }

    private long stored(String run) throws Exception {
        try (var c = dataSource.getConnection();
                var ps = c.prepareStatement("SELECT count(*) FROM event_log WHERE event_id LIKE ?")) {
            ps.setString(1, "%-" + run + "-%");
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
