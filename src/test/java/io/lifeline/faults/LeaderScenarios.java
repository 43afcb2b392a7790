package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The leader's faults: kill -9 under load with an action waiting, kill -9 in the middle of a drain, and a pause
 * longer than its lease (SIGSTOP) while a step of a drain is in flight (its call to the API server held by the
 * network), after which its write of that step must be fenced out. Each action runs against a job the suite sets
 * up; the stand-in trainers answer checkpoint commands with completed checkpoints, or hold them to keep an action
 * waiting.
 */
final class LeaderScenarios {

    private final Scenarios s;
    private final Cluster cluster;

    LeaderScenarios(Scenarios s) {
        this.s = s;
        this.cluster = s.cluster;
    }

    /** A job with ranks on {@code node}, known to both replicas; its events are part of the scenario. */
    String actionJob(Workload w, int n, String node) throws Exception {
        String job = Workload.NAMESPACE + "/" + w.scenario() + "-act-" + n;
        Instant now = Instant.now();
        String sub = w.scenario() + "-actsub-" + n;
        String rdzv = w.scenario() + "-actrdzv-" + n;
        cluster.load.send(new Workload.Pending(
                Events.jobSubmitted(sub, job, now.minusSeconds(60)),
                job,
                new Ledger.Entry(w.scenario(), sub, Events.FLEET_SOURCE, Ledger.Kind.OTHER, job, null, "kafka")));
        cluster.load.send(new Workload.Pending(
                Events.rendezvous(rdzv, job, node, 0, now.minusSeconds(50)),
                job,
                new Ledger.Entry(w.scenario(), rdzv, "trainer/" + job, Ledger.Kind.OTHER, job, null, "kafka")));
        cluster.load.sendTelemetry(job, Events.progress(w.scenario() + "-actprog-" + n, job, 50, now.minusSeconds(40)));
        Waits.until(job + " known to both replicas", Duration.ofSeconds(120), () -> {
            for (Replica r : cluster.replicas) {
                JsonNode d = r.get("/api/v1/jobs/" + job, cluster.token);
                if (d == null || d.path("summary").path("nodes").asInt() != 1) {
                    return false;
                }
            }
            return true;
        });
        return job;
    }

    Outcome leaderKill() throws InterruptedException {
        return s.run(
                "leader-kill",
                "kill -9 of the leader under load while a checkpoint-now waits for its checkpoint",
                (o, w, m) -> killLeader(o, w, m, false));
    }

    Outcome leaderKillMidDrain() throws InterruptedException {
        return s.run(
                "leader-kill-mid-drain",
                "kill -9 of the leader in the middle of a drain (node cordoned, waiting " + "for the job's checkpoint)",
                (o, w, m) -> killLeader(o, w, m, true));
    }

    private void killLeader(Outcome o, Workload w, Scenarios.Marks m, boolean drain) throws Exception {
        String node = Cluster.drainNodes().get(drain ? 1 : 0);
        String job = actionJob(w, 0, node);
        String other = actionJob(w, 1, Cluster.drainNodes().get(drain ? 3 : 2));
        Replica leader = cluster.leader();
        Replica survivor = cluster.other(leader);
        cluster.topics.hold(job);
        String front = "http://127.0.0.1:" + cluster.front.port();
        String first = drain
                ? s.actions.submit(front, "drain", node, 600)
                : s.actions.submit(front, "checkpoint-now", job, 600);
        Waits.until(
                "the checkpoint command of " + first, Duration.ofSeconds(60), () -> cluster.topics.commandWaiting(job));
        // Killed while no step is in flight: the command recorded as sent, the action waiting for the checkpoint.
        Waits.until(first + " waiting for the checkpoint", Duration.ofSeconds(60), () -> {
            List<String> st = s.actions.steps(first);
            return st.stream().anyMatch(x -> x.startsWith("request checkpoint") && x.contains(": done"))
                    && st.stream().anyMatch(x -> x.startsWith("await checkpoint") && x.contains(": running"));
        });
        if (drain) {
            o.details.put("cordonRequestsBeforeKill", patches(node));
        }
        long killed = System.nanoTime();
        leader.kill();
        m.end(cluster.ledger.of(w.scenario()));
        o.details.put("killed", leader.name());
        takeOver(o, survivor, killed, other);
        cluster.topics.release(job);
        leader.start();
        leader.awaitReady(Duration.ofMinutes(5));
        String end = s.actions.awaitEnd(first, Duration.ofMinutes(3));
        o.details.put("interruptedAction", first + " " + end + " " + s.actions.steps(first));
        if (!"succeeded".equals(end)) {
            o.fail("the interrupted action " + first + " ended " + end);
        }
        java.util.Map<String, Integer> commands = cluster.topics.commandsOf(first);
        o.details.put("commands", commands);
        commands.forEach((id, n) -> {
            if (n > 1) {
                // Its step was recorded done before the kill: sending it again means the step ran again.
                o.stepsTwice++;
                o.fail("command " + id + " was sent " + n + " times");
            }
        });
        if (drain) {
            o.details.put("cordonRequests", patches(node));
            if (patches(node) != 1) {
                o.fail("the node was cordoned " + patches(node) + " times");
            }
        }
        stepsTwice(o, List.of(first));
    }

    /**
     * From the kill (or pause) until the survivor holds the lease, then until it executes: a checkpoint-now submitted
     * to it starts running.
     */
    private String takeOver(Outcome o, Replica survivor, long since, String job) throws Exception {
        Waits.until(survivor.name() + " leading", Duration.ofSeconds(60), () -> {
            Cluster.Lease l = cluster.lease();
            return l != null && l.pid() == survivor.pid();
        });
        o.leaderSeconds = Waits.seconds(since, System.nanoTime());
        String probe = s.actions.submit(survivor.url(), "checkpoint-now", job, 600);
        Waits.until(probe + " running", Duration.ofSeconds(60), () -> !"pending".equals(s.actions.state(probe)));
        o.takeoverSeconds = Waits.seconds(since, System.nanoTime());
        if (o.takeoverSeconds > 15) {
            o.fail("takeover took " + o.takeoverSeconds + " s (target: under 15 s)");
        }
        String end = s.actions.awaitEnd(probe, Duration.ofMinutes(2));
        if (!"succeeded".equals(end)) {
            o.fail("the action submitted after the takeover ended " + end);
        }
        stepsTwice(o, List.of(probe));
        return probe;
    }

    Outcome leaderPause() throws InterruptedException {
        return s.run(
                "leader-pause",
                "the leader frozen (SIGSTOP) for longer than its lease while a drain's cordon call is "
                        + "in flight (held by the network), then let go: its write of that step must be fenced",
                (o, w, m) -> {
                    String node = Cluster.drainNodes().get(4);
                    actionJob(w, 0, node);
                    String other = actionJob(w, 1, Cluster.drainNodes().get(5));
                    Replica leader = cluster.leader();
                    Replica survivor = cluster.other(leader);
                    FaultProxy net = cluster.kubeProxies.get(cluster.indexOf(leader));
                    double fencedBefore = leader.metric("lifeline_actions_fenced_total");
                    net.mode(FaultProxy.Mode.HOLD);
                    String drain = s.actions.submit("http://127.0.0.1:" + cluster.front.port(), "drain", node, 600);
                    Waits.until("the cordon call in flight", Duration.ofSeconds(60), net::heldRequest);
                    long paused = System.nanoTime();
                    leader.pause();
                    String end;
                    List<String> stepsBefore;
                    try {
                        m.end(cluster.ledger.of(w.scenario()));
                        o.details.put("paused", leader.name());
                        takeOver(o, survivor, paused, other);
                        end = s.actions.awaitEnd(drain, Duration.ofMinutes(3));
                        stepsBefore = s.actions.steps(drain);
                        Waits.until(
                                "a pause longer than the lease",
                                Duration.ofSeconds(60),
                                () -> System.nanoTime() - paused
                                        > Duration.ofSeconds(15).toNanos());
                    } finally {
                        // Whatever failed above, the scenarios after this one get both replicas back.
                        net.mode(FaultProxy.Mode.FORWARD);
                        leader.resume();
                    }
                    o.details.put("pausedSeconds", Waits.seconds(paused, System.nanoTime()));
                    double fenced;
                    try {
                        fenced = Waits.until("the old leader's write fenced", Duration.ofSeconds(60), () -> {
                            double f = leader.metric("lifeline_actions_fenced_total") - fencedBefore;
                            return f >= 1 ? f : null;
                        });
                    } catch (IllegalStateException e) {
                        fenced = 0;
                        o.fail("no fenced write counted on the old leader (lifeline_actions_fenced_total)");
                    }
                    Waits.sleep(Duration.ofSeconds(3));
                    o.details.put("fencedWrites", fenced);
                    o.details.put("drain", drain + " " + end + " " + stepsBefore);
                    o.details.put("cordonRequests", patches(node));
                    if (!"succeeded".equals(end)) {
                        o.fail("the drain ended " + end);
                    }
                    if (!stepsBefore.equals(s.actions.steps(drain))) {
                        o.fail("the old leader changed the drain's steps after it woke: " + s.actions.steps(drain));
                    }
                    stepsTwice(o, List.of(drain));
                });
    }

    Outcome kubeSlowFailing() throws InterruptedException {
        return s.run(
                "kube-slow-failing",
                "the Kubernetes API server slow (every request 3 s late) during one drain, then "
                        + "failing (HTTP 503 to every connection) for 45 s during another: both drains finish, each node cordoned "
                        + "once",
                (o, w, m) -> {
                    String slowNode = Cluster.drainNodes().get(6);
                    String failNode = Cluster.drainNodes().get(7);
                    actionJob(w, 0, slowNode);
                    actionJob(w, 1, failNode);
                    String front = "http://127.0.0.1:" + cluster.front.port();
                    kube(FaultProxy.Mode.SLOW);
                    long slowAt = System.nanoTime();
                    String slow = s.actions.submit(front, "drain", slowNode, 600);
                    String slowEnd = s.actions.awaitEnd(slow, Duration.ofMinutes(5));
                    o.details.put(
                            "slowDrain",
                            slow + " " + slowEnd + " in " + Waits.seconds(slowAt, System.nanoTime()) + " s "
                                    + s.actions.steps(slow));
                    kube(FaultProxy.Mode.FAIL);
                    long failAt = System.nanoTime();
                    String failing = s.actions.submit(front, "drain", failNode, 600);
                    Waits.until(
                            "the cordon refused for now",
                            Duration.ofSeconds(60),
                            () -> s.actions.steps(failing).stream().anyMatch(x -> x.startsWith("cordon: running")));
                    Waits.until(
                            "45 s of a failing API server",
                            Duration.ofSeconds(60),
                            () -> System.nanoTime() - failAt
                                    > Duration.ofSeconds(45).toNanos());
                    String stateWhileFailing = s.actions.state(failing);
                    kube(FaultProxy.Mode.FORWARD);
                    long back = System.nanoTime();
                    m.end(cluster.ledger.of(w.scenario()));
                    String failEnd = s.actions.awaitEnd(failing, Duration.ofMinutes(5));
                    o.details.put(
                            "failingDrain",
                            failing + " " + failEnd + ", " + stateWhileFailing
                                    + " while the API failed, ended " + Waits.seconds(back, System.nanoTime())
                                    + " s after it answered again " + s.actions.steps(failing));
                    if (!"succeeded".equals(slowEnd)) {
                        o.fail("the drain under a slow API server ended " + slowEnd);
                    }
                    if (!"running".equals(stateWhileFailing)) {
                        o.fail("the drain was " + stateWhileFailing
                                + " while the API server failed (expected: running, " + "its cordon tried again)");
                    }
                    if (!"succeeded".equals(failEnd)) {
                        o.fail("the drain after a failing API server ended " + failEnd);
                    }
                    for (String node : List.of(slowNode, failNode)) {
                        long patches = patches(node);
                        o.details.put("cordonRequests " + node, patches);
                        if (patches != 1) {
                            o.fail(node + " was cordoned " + patches + " times");
                        }
                    }
                    stepsTwice(o, List.of(slow, failing));
                });
    }

    private void kube(FaultProxy.Mode mode) {
        for (FaultProxy p : cluster.kubeProxies) {
            p.mode(mode);
        }
    }

    private void stepsTwice(Outcome o, List<String> actionIds) throws Exception {
        List<String> twice = s.actions.stepsEndedTwice(actionIds);
        o.stepsTwice += twice.size();
        if (!twice.isEmpty()) {
            o.fail("action steps ran twice: " + twice);
        }
    }

    /** Requests the mock API server answered to change {@code node} (cordon and uncordon are PATCHes). */
    private long patches(String node) throws java.io.IOException {
        String path = " /api/v1/nodes/" + node;
        return Files.readAllLines(cluster.kube.log()).stream()
                .filter(l -> l.startsWith("REQUEST PATCH") && (l.endsWith(path) || l.contains(path + "?")))
                .count();
    }
}
