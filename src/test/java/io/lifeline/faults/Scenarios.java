package io.lifeline.faults;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The scenarios. Each runs under the steady load with a lifecycle stream of its own ({@link Workload}), injects its
 * fault, clears it, and is then accounted for: every event it produced applied once on both replicas or rejected
 * with a reason, both replicas answering the same reads, and the time it took to recover (from the moment the fault
 * was cleared, or the kill, until everything produced before it is stored and followed by both replicas).
 */
class Scenarios {

    /** The body of one scenario: injects and clears the fault, marking when it is over. */
    interface Fault {
        void run(Outcome o, Workload w, Marks m) throws Exception;
    }

    /** When the fault ended, and the events produced by then (the ones recovery waits for). */
    static final class Marks {
        private long endNanos;
        private List<Ledger.Entry> before;

        void end(List<Ledger.Entry> producedBefore) {
            endNanos = System.nanoTime();
            before = producedBefore;
        }
    }

    final Cluster cluster;
    final Checker checker;
    final Actions actions;
    final boolean quick;
    private int next;

    Scenarios(Cluster cluster, boolean quick) {
        this.cluster = cluster;
        this.checker = new Checker(cluster);
        this.actions = new Actions(cluster);
        this.quick = quick;
    }

    /** Steady load before a fault, and after it before the accounting. */
    Duration calm() {
        return Duration.ofSeconds(quick ? 8 : 30);
    }

    Outcome run(String name, String description, Fault fault) throws InterruptedException {
        String id = String.format("s%02d", ++next);
        Outcome o = new Outcome(name, description);
        Workload w = new Workload(id, 2);
        cluster.load.workload(w);
        Marks m = new Marks();
        long started = System.nanoTime();
        long sentBefore = cluster.load.sent();
        try {
            Waits.sleep(calm());
            fault.run(o, w, m);
            if (m.before == null) {
                m.end(cluster.ledger.of(id));
            }
            probeRecovery(o, m, calm(), true);
            cluster.load.workload(null);
            cluster.load.flush(Duration.ofSeconds(60));
            if (o.recoverySeconds == null) {
                probeRecovery(o, m, settle(), false);
            }
            o.accounted(checker.account(cluster.ledger.of(id), settle()));
        } catch (Exception e) {
            cluster.load.workload(null);
            o.fail("the scenario could not complete: " + e);
            e.printStackTrace();
        }
        o.details.put("id", id);
        double seconds = Waits.seconds(started, System.nanoTime());
        o.details.put("seconds", seconds);
        o.details.put("eventsPerSecond", Math.round((cluster.load.sent() - sentBefore) / Math.max(1, seconds)));
        double lag = 0;
        for (Replica r : cluster.replicas) {
            try {
                lag = Math.max(lag, r.metric("lifeline_ingest_kafka_consumer_lag_records"));
            } catch (Exception e) {
                o.details.put("kafkaLag", "unreadable: " + e);
            }
        }
        // Telemetry not consumed yet when the scenario ends (the lifecycle events are all accounted for above).
        o.details.putIfAbsent("kafkaLagAtEnd", Math.round(lag));
        return o;
    }

    /** How long the accounting may wait for the last events to be applied everywhere. */
    Duration settle() {
        return Duration.ofMinutes(quick ? 3 : 15);
    }

    /**
     * Polls whether everything produced before the fault's end is stored and followed by both replicas, noting when it
     * first is; for all of {@code within} with {@code fullLength}, else until then.
     */
    private void probeRecovery(Outcome o, Marks m, Duration within, boolean fullLength) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            if (o.recoverySeconds == null) {
                boolean done;
                try {
                    done = checker.recovered(m.before);
                } catch (Exception e) {
                    done = false;
                }
                if (done) {
                    o.recoverySeconds = Waits.seconds(m.endNanos, System.nanoTime());
                }
            }
            if (o.recoverySeconds != null && !fullLength) {
                return;
            }
            Thread.sleep(500);
        }
    }

    // ------------------------------------------------------------------------------------------- infrastructure

    Outcome steady() throws InterruptedException {
        return run(
                "steady", "no fault: the load alone (a check of the suite itself)", (o, w, m) -> Waits.sleep(calm()));
    }

    Outcome brokerRestart() throws InterruptedException {
        return run(
                "broker-restart",
                "the Kafka broker stopped (SIGTERM) under load and started again 10 s later",
                (o, w, m) -> {
                    cluster.kafka.stop();
                    Waits.sleep(Duration.ofSeconds(10));
                    cluster.kafka.start();
                    m.end(cluster.ledger.of(w.scenario()));
                });
    }

    Outcome postgresRestart() throws InterruptedException {
        return run(
                "postgres-restart",
                "PostgreSQL stopped (fast shutdown) under load and started again 5 s later",
                (o, w, m) -> {
                    cluster.postgres.stop();
                    Waits.sleep(Duration.ofSeconds(5));
                    cluster.postgres.start();
                    m.end(cluster.ledger.of(w.scenario()));
                    awaitReady(Duration.ofMinutes(5), o);
                });
    }

    Outcome postgresUnreachable(Duration outage) throws InterruptedException {
        return run(
                "postgres-unreachable",
                "the network to PostgreSQL black-holed for both replicas for " + outage.toSeconds()
                        + " s (connections hang, nothing is reset), then healed",
                (o, w, m) -> {
                    for (FaultProxy p : cluster.pgProxies) {
                        p.mode(FaultProxy.Mode.HOLD);
                    }
                    Waits.sleep(outage);
                    List<Ledger.Entry> before = cluster.ledger.of(w.scenario());
                    for (FaultProxy p : cluster.pgProxies) {
                        p.mode(FaultProxy.Mode.FORWARD);
                    }
                    m.end(before);
                    awaitReady(Duration.ofMinutes(10), o);
                });
    }

    Outcome rollingRestart() throws InterruptedException {
        return run(
                "rolling-restart",
                "each replica stopped (SIGTERM) and started again in turn, under load; then every "
                        + "event of every scenario is accounted for again",
                (o, w, m) -> {
                    long started = System.nanoTime();
                    for (Replica r : cluster.replicas) {
                        r.stop();
                        r.start();
                        r.awaitReady(Duration.ofMinutes(5));
                    }
                    o.details.put("restartSeconds", Waits.seconds(started, System.nanoTime()));
                    m.end(cluster.ledger.of(w.scenario()));
                });
    }

    /** Every event of the whole run accounted for once more (after the last scenario). */
    Outcome wholeRun() throws InterruptedException {
        Outcome o = new Outcome("whole-run", "every event of every scenario, accounted for again at the end");
        try {
            cluster.load.workload(null);
            List<Ledger.Entry> all = cluster.ledger.all();
            all.removeIf(e -> e.scenario().equals("quickstart"));
            o.accounted(checker.account(all, settle()));
        } catch (Exception e) {
            o.fail("could not account: " + e);
        }
        return o;
    }

    void awaitReady(Duration timeout, Outcome o) throws InterruptedException {
        for (Replica r : cluster.replicas) {
            try {
                r.awaitReady(timeout);
            } catch (IllegalStateException e) {
                o.fail(e.getMessage());
            }
        }
    }

    static Instant now() {
        return Instant.now();
    }
}
