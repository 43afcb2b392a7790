package io.lifeline.faults;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The lifecycle events of one scenario, with ids known in advance and a way to find each applied in a replica's
 * model: one node registration (its own pool, so the node list can be read per scenario) for every nine checkpoint
 * completions, spread over jobs of at most {@link #CHECKPOINTS_PER_JOB} (every job's timeline stays in memory,
 * where a duplicate application would show twice).
 */
final class Workload {

    /** One event to send: its JSON, its Kafka key and its ledger entry. */
    record Pending(String json, String key, Ledger.Entry entry) {}

    static final int CHECKPOINTS_PER_JOB = 200;
    static final String NAMESPACE = "faults";

    private final String scenario;
    private final int httpEvery;
    private final List<String> jobs = new ArrayList<>();
    private final List<Pending> generated = new ArrayList<>();
    private long n;
    private Instant last = Instant.EPOCH;
    private int nodes;
    private int checkpointsInJob = CHECKPOINTS_PER_JOB;

    /** One node registration in {@code httpEvery} goes over HTTP through the front address, everything else to Kafka. */
    Workload(String scenario, int httpEvery) {
        this.scenario = scenario;
        this.httpEvery = httpEvery;
    }

    String scenario() {
        return scenario;
    }

    String pool() {
        return scenario + "-pool";
    }

    /** The jobs this workload created so far. */
    synchronized List<String> jobs() {
        return new ArrayList<>(jobs);
    }

    synchronized int nodes() {
        return nodes;
    }

    /** Everything this workload handed out so far, in order (to send again). */
    synchronized List<Pending> generated() {
        return new ArrayList<>(generated);
    }

    /** The next event of the stream. */
    synchronized Pending next(Instant now) {
        // Distinct times, a millisecond apart at least: which of two checkpoints completed last must not depend on
        // the order they arrived in.
        last = now.isAfter(last.plusMillis(1)) ? now : last.plusMillis(1);
        Pending p = make(last);
        generated.add(p);
        return p;
    }

    private Pending make(Instant now) {
        long i = n++;
        if (i % 10 == 0) {
            // Over HTTP (through the front address, so to either replica) only events whose effect does not depend on
            // the order they arrive in: node registrations. A job's events go to Kafka, keyed by the job.
            String via = httpEvery > 0 && nodes % httpEvery == 0 ? "http" : "kafka";
            String node = scenario + "-node-" + nodes;
            String id = scenario + "-reg-" + nodes++;
            return new Pending(
                    Events.nodeRegistered(id, node, pool(), now),
                    node,
                    new Ledger.Entry(scenario, id, Events.FLEET_SOURCE, Ledger.Kind.NODE, node, null, via));
        }
        if (checkpointsInJob >= CHECKPOINTS_PER_JOB) {
            String job = NAMESPACE + "/" + scenario + "-job-" + jobs.size();
            jobs.add(job);
            checkpointsInJob = 0;
            String id = scenario + "-sub-" + (jobs.size() - 1);
            return new Pending(
                    Events.jobSubmitted(id, job, now.minusMillis(1)),
                    job,
                    new Ledger.Entry(scenario, id, Events.FLEET_SOURCE, Ledger.Kind.OTHER, job, null, "kafka"));
        }
        String job = jobs.get(jobs.size() - 1);
        int k = checkpointsInJob++;
        String cp = scenario + "-cp-" + (jobs.size() - 1) + "-" + k;
        return new Pending(
                Events.checkpointCompleted(cp, job, cp, 100L * (k + 1), now),
                job,
                new Ledger.Entry(scenario, cp, "trainer/" + job, Ledger.Kind.CHECKPOINT, job, cp, "kafka"));
    }
}
