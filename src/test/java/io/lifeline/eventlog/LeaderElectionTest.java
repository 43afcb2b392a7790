package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agroal.api.AgroalDataSource;
import io.lifeline.action.ActionExecutor;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Two replicas compete for the database's leader lease; when the leader goes or stalls, the other takes over. */
@QuarkusTest
class LeaderElectionTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ActionExecutor executor;

    @Test
    void theOtherReplicaTakesOverWhenTheLeaderDies() {
        executor.stop();
        List<String> changes = new CopyOnWriteArrayList<>();
        LeaderElection a = new LeaderElection(dataSource, "a", Duration.ofSeconds(2), l -> changes.add("a:" + l));
        LeaderElection b = new LeaderElection(dataSource, "b", Duration.ofSeconds(2), l -> changes.add("b:" + l));
        try {
            a.start(100);
            await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
            long firstTerm = a.term();
            assertThat(firstTerm).isPositive();
            b.start(100);
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !b.isLeader());
            a.close();
            await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
            assertThat(a.isLeader()).isFalse();
            assertThat(a.term()).isZero();
            assertThat(b.term()).as("a new leader fences the old one out").isGreaterThan(firstTerm);
            assertThat(changes).containsExactly("a:true", "a:false", "b:true");
        } finally {
            a.close();
            b.close();
            executor.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(executor::isLeader);
    }

    @Test
    void aLeaderPausedPastItsLeaseIsReplacedAndItsTermNoLongerPassesTheFence() throws Exception {
        executor.stop();
        LeaderElection a = new LeaderElection(dataSource, "paused-a", Duration.ofMillis(700), l -> {});
        LeaderElection b = new LeaderElection(dataSource, "paused-b", Duration.ofMillis(700), l -> {});
        try {
            // Driven tick by tick: a renews once, then its thread stops running (a paused process).
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                a.tick();
                return a.isLeader();
            });
            long first = a.term();
            assertThat(fencePasses(first)).isTrue();
            b.tick();
            assertThat(b.isLeader()).as("the lease is still a's").isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                b.tick();
                return b.isLeader();
            });
            assertThat(a.isLeader())
                    .as("a's own clock tells it its lease is over")
                    .isFalse();
            assertThat(b.term()).isGreaterThan(first);
            assertThat(fencePasses(first))
                    .as("the paused leader's term is fenced out")
                    .isFalse();
            assertThat(fencePasses(b.term())).isTrue();
            // a wakes up and renews: the lease is b's, so a stays a follower.
            a.tick();
            assertThat(a.isLeader()).isFalse();
        } finally {
            a.close();
            b.close();
            executor.start();
        }
        await().atMost(Duration.ofSeconds(15)).until(executor::isLeader);
    }

    private boolean fencePasses(long term) throws Exception {
        try (java.sql.Connection c = dataSource.getConnection();
                java.sql.PreparedStatement ps = c.prepareStatement("SELECT " + Fence.CONDITION)) {
            ps.setLong(1, term);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
