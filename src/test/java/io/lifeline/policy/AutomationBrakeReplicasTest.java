package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.ActionsForTests;
import io.lifeline.action.store.ActionStore;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.AutomationBrake.Target;
import io.lifeline.domain.policy.AutomationBrake.Verdict;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.policy.store.BrakeStore;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.MigratedPostgres;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' brakes over one database: what one records the other sees (an engagement, a reset, the window a new
 * leader continues with), and decisions made at the same time on both are counted one at a time, so no more nodes go
 * than the bound allows. Without a model: the tests give the targets.
 */
class AutomationBrakeReplicasTest {

    private static MigratedPostgres db;
    private static ActionStore audit;
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-02T09:00:00Z"));
    private AutomationBrakeService a;
    private AutomationBrakeService b;

    @BeforeAll
    static void database() throws Exception {
        db = MigratedPostgres.start("brake-replicas");
        audit = ActionsForTests.store(db.dataSource());
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
    }

    @BeforeEach
    void replicas() {
        a = new AutomationBrakeService(
                new BrakeStore(db.dataSource(), audit), null, AutomationBrake.Settings.defaults(), clock);
        b = new AutomationBrakeService(
                new BrakeStore(db.dataSource(), audit), null, AutomationBrake.Settings.defaults(), clock);
        a.reset(Caller.unrestricted("tests"), "a fresh start");
    }

    private static Target node(String pool, int i, int poolNodes) {
        return new Target(pool + "-" + i, pool, poolNodes);
    }

    @Test
    void anEngagementOnOneReplicaHoldsTheNextLeadersDecisionsUntilAResetOnAnyReplica() {
        for (int i = 0; i < 2; i++) {
            assertThat(a.admit(node("small", i, 4), PolicyName.NOTICE_CHECKPOINT_DRAIN)
                            .verdict())
                    .isEqualTo(Verdict.ALLOWED);
        }
        assertThat(a.admit(node("small", 2, 4), PolicyName.NOTICE_CHECKPOINT_DRAIN)
                        .verdict())
                .isEqualTo(Verdict.TRIPPED);
        // Leadership moves to b: it holds, as a would have.
        assertThat(b.admit(node("other", 0, 50), PolicyName.FATAL_XID_DRAIN).verdict())
                .isEqualTo(Verdict.HELD);
        assertThat(b.refresh().held()).isEqualTo(2);
        // A person resets it on a: b's next decision goes ahead, counted afresh.
        a.reset(Caller.unrestricted("alice"), "checked: forged");
        assertThat(b.admit(node("other", 1, 50), PolicyName.FATAL_XID_DRAIN).verdict())
                .isEqualTo(Verdict.ALLOWED);
        assertThat(a.refresh().taken()).extracting(AutomationBrake.Take::node).containsExactly("other-1");
    }

    @Test
    void aNewLeaderContinuesWithTheWindowOfTheOneBefore() {
        for (int i = 0; i < 9; i++) {
            a.admit(node("p" + i, 0, 100), PolicyName.NOTICE_CHECKPOINT_DRAIN);
        }
        clock.advance(Duration.ofMinutes(5));
        assertThat(b.admit(node("p9", 0, 100), PolicyName.NOTICE_CHECKPOINT_DRAIN)
                        .verdict())
                .isEqualTo(Verdict.ALLOWED);
        assertThat(b.admit(node("p10", 0, 100), PolicyName.NOTICE_CHECKPOINT_DRAIN)
                        .verdict())
                .isEqualTo(Verdict.TRIPPED);
    }

    @Test
    void decisionsOnTwoReplicasAtOnceNeverTakeMoreThanTheBound() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Verdict>> answers = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                AutomationBrakeService on = i % 2 == 0 ? a : b;
                Target t = node("race", i, 40);
                answers.add(pool.submit((Callable<Verdict>)
                        () -> on.admit(t, PolicyName.NOTICE_CHECKPOINT_DRAIN).verdict()));
            }
            List<Verdict> verdicts = new ArrayList<>();
            for (Future<Verdict> f : answers) {
                verdicts.add(f.get());
            }
            // A fifth of 40 nodes: 8 go, one engages the brake, the other 31 are held.
            assertThat(verdicts.stream().filter(v -> v == Verdict.ALLOWED).count())
                    .isEqualTo(8);
            assertThat(verdicts.stream().filter(v -> v == Verdict.TRIPPED).count())
                    .isEqualTo(1);
            assertThat(verdicts.stream().filter(v -> v == Verdict.HELD).count()).isEqualTo(31);
            assertThat(a.refresh().held()).isEqualTo(32);
        } finally {
            pool.shutdownNow();
        }
        assertThat(db.queryLong("SELECT count(*) FROM audit_log WHERE what = 'policy.brake_engaged'"))
                .isPositive();
    }
}
