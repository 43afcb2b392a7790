package io.lifeline.store;

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

/** Two replicas compete for the database's leader lock; when the leader goes, the other takes over. */
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
        LeaderElection a = new LeaderElection(dataSource, "a", l -> changes.add("a:" + l));
        LeaderElection b = new LeaderElection(dataSource, "b", l -> changes.add("b:" + l));
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
}
