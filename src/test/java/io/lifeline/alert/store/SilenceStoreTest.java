package io.lifeline.alert.store;

import static io.lifeline.testing.TestTokens.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agroal.api.AgroalDataSource;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.eventlog.StoreUnavailableException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Silences through the Panache mapping of {@code alert_silence}: what is stored reads back equal (every matcher type),
 * the listing keeps the ended ones out unless asked and orders by end, expiring ends a silence once, retention deletes
 * what ended before it, and a failing database is the store being unavailable (HTTP 503).
 */
@QuarkusTest
class SilenceStoreTest {

    @Inject
    SilenceStore store;

    @Inject
    AgroalDataSource db;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /** At the database's precision, so that a silence read back equals the one written. */
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private Silence silence(String name, Instant startsAt, Instant endsAt, Matcher... more) {
        List<Matcher> matchers = new java.util.ArrayList<>(List.of(Matcher.equal("job", "silence-store/" + tag)));
        matchers.addAll(List.of(more));
        return new Silence(name + "-" + tag, matchers, startsAt, endsAt, "tester", "why: " + name);
    }

    private List<String> ours(List<Silence> silences) {
        return silences.stream()
                .map(Silence::id)
                .filter(id -> id.endsWith("-" + tag))
                .toList();
    }

    @Test
    void silencesRoundTripAndAreListedUntilTheyEnd() {
        Silence active = silence(
                "active",
                now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofHours(2)),
                new Matcher("env", "dev", Matcher.Type.NOT_EQUAL),
                new Matcher("node", "gpu-.*", Matcher.Type.REGEX),
                new Matcher("pool", "spot.*", Matcher.Type.NOT_REGEX));
        Silence pending = silence("pending", now.plus(Duration.ofHours(1)), now.plus(Duration.ofHours(3)));
        Silence ended = silence("ended", now.minus(Duration.ofDays(401)), now.minus(Duration.ofDays(400)));
        for (Silence s : List.of(active, pending, ended)) {
            store.insert(s, now);
        }

        assertThat(store.find(active.id())).contains(active);
        assertThat(store.find(ended.id())).contains(ended);
        assertThat(store.find("no-such-silence-" + tag)).isEmpty();
        assertThat(ours(store.list(now, false, 10_000))).containsExactly(pending.id(), active.id());
        assertThat(ours(store.list(now, true, 10_000))).containsExactly(pending.id(), active.id(), ended.id());
        assertThat(store.list(now, true, 1)).hasSize(1);
        assertThat(store.list(now, true, 0)).isEmpty();
    }

    @Test
    void expiringEndsASilenceNowAndOnlyOnce() throws SQLException {
        Silence active = silence("active", now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(2)));
        Silence pending = silence("pending", now.plus(Duration.ofHours(1)), now.plus(Duration.ofHours(3)));
        Silence ended = silence("ended", now.minus(Duration.ofDays(401)), now.minus(Duration.ofDays(400)));
        for (Silence s : List.of(active, pending, ended)) {
            store.insert(s, now);
        }

        Silence stopped = store.expire(active.id(), now, "operator-a").orElseThrow();
        assertThat(stopped.startsAt()).isEqualTo(active.startsAt());
        assertThat(stopped.endsAt()).isEqualTo(now);
        assertThat(store.find(active.id())).contains(stopped);
        assertThat(expiredBy(active.id())).isEqualTo("operator-a");

        Silence neverStarted = store.expire(pending.id(), now, "operator-b").orElseThrow();
        assertThat(neverStarted.startsAt()).isEqualTo(now.minusMillis(1));
        assertThat(neverStarted.endsAt()).isEqualTo(now);

        // Ended already: left as it was, by nobody.
        assertThat(store.expire(ended.id(), now, "operator-c")).contains(ended);
        assertThat(expiredBy(ended.id())).isNull();
        assertThat(store.expire(active.id(), now.plusSeconds(1), "operator-d")).contains(stopped);
        assertThat(expiredBy(active.id())).isEqualTo("operator-a");
        assertThat(store.expire("no-such-silence-" + tag, now, "operator-a")).isEmpty();

        assertThat(ours(store.list(now, false, 10_000))).isEmpty();
        assertThat(ours(store.list(now, true, 10_000)))
                .containsExactlyInAnyOrder(active.id(), pending.id(), ended.id());
    }

    @Test
    void retentionDeletesWhatEndedBeforeIt() {
        Silence old = silence("old", now.minus(Duration.ofDays(501)), now.minus(Duration.ofDays(500)));
        Silence recent = silence("recent", now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1)));
        store.insert(old, now);
        store.insert(recent, now);

        store.deleteEndedBefore(now.minus(Duration.ofDays(499)));

        assertThat(store.find(old.id())).isEmpty();
        assertThat(store.find(recent.id())).contains(recent);
    }

    @Test
    void aFailingDatabaseIsTheAlertStoreBeingUnavailable() throws SQLException {
        Silence s = silence("during-outage", now, now.plus(Duration.ofHours(1)));
        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            // The table out of reach stands for a database that fails every statement on it.
            st.execute("ALTER TABLE alert_silence RENAME TO alert_silence_away");
            try {
                assertThatThrownBy(() -> store.list(now, true, 10))
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("the alert store");
                assertThatThrownBy(() -> store.insert(s, now)).isInstanceOf(StoreUnavailableException.class);
                assertThatThrownBy(() -> store.find(s.id())).isInstanceOf(StoreUnavailableException.class);
                assertThatThrownBy(() -> store.expire(s.id(), now, "operator-a"))
                        .isInstanceOf(StoreUnavailableException.class);
                given(asViewer()).get("/api/v1/silences").then().statusCode(503);
            } finally {
                st.execute("ALTER TABLE alert_silence_away RENAME TO alert_silence");
            }
        }
        assertThat(store.find(s.id())).isEmpty();
        assertThat(ours(store.list(now, true, 10_000))).isEmpty();
    }

    private String expiredBy(String id) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT expired_by FROM alert_silence WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
