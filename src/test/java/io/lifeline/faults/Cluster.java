package io.lifeline.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything the scenarios drive, as real processes on loopback: one PostgreSQL server, one KRaft broker, the fabric8
 * mock Kubernetes API server, two Lifeline replicas (each reaching the database and the API server through a proxy of
 * its own, so that one replica's network can be cut alone) behind one front address, the load generator and the
 * stand-in for the trainers. Ports are {@code base} to {@code base + 30}.
 */
final class Cluster implements AutoCloseable {

    /** How to run: where, on which ports, with which jar and class path, at which rates. */
    record Settings(Path work, int base, String jar, String classPath, int rate, int lifecycleRate) {}

    final Settings settings;
    final Ledger ledger = new Ledger();
    final Postgres postgres;
    final KafkaBroker kafka;
    final List<FaultProxy> pgProxies = new ArrayList<>();
    final List<FaultProxy> kubeProxies = new ArrayList<>();
    final List<Replica> replicas = new ArrayList<>();
    FaultProxy front;
    Child kube;
    Load load;
    Topics topics;
    String token;
    private final List<String> telemetryNodes = new ArrayList<>();
    private final Map<String, Long> answeredSteps = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong answers = new java.util.concurrent.atomic.AtomicLong();

    Cluster(Settings settings) throws Exception {
        this.settings = settings;
        this.postgres = new Postgres(settings.work().resolve("postgres"), settings.base());
        this.kafka = new KafkaBroker(settings.work(), settings.base() + 2, settings.base() + 3, settings.classPath());
    }

    /** The nodes that carry the GPU telemetry (registered at start-up), and the names of the drain nodes. */
    static List<String> drainNodes() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            out.add("faults-drain-" + i);
        }
        return out;
    }

    void start() throws Exception {
        Files.createDirectories(settings.work());
        int b = settings.base();
        postgres.start();
        kafka.start();
        kafka.createTopics();
        List<String> kubeCmd = new ArrayList<>(List.of(
                KafkaBroker.java(),
                "-Xmx256m",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-cp",
                settings.classPath(),
                "io.lifeline.faults.StandaloneKubernetes",
                Integer.toString(b + 4)));
        kubeCmd.addAll(drainNodes());
        kube = Child.start("kube", kubeCmd, settings.work(), settings.work().resolve("kube.log"), Map.of());
        Waits.until(
                "the mock Kubernetes API server",
                Duration.ofSeconds(120),
                () -> Files.exists(kube.log()) && Files.readString(kube.log()).contains("READY"));
        for (int i = 0; i < 2; i++) {
            pgProxies.add(new FaultProxy("pg-" + i, b + 5 + i, List.of(b)).start());
            kubeProxies.add(new FaultProxy("kube-" + i, b + 7 + i, List.of(b + 4)).start());
        }
        Path tokenFile = settings.work().resolve("admin-token");
        for (int i = 0; i < 2; i++) {
            String name = i == 0 ? "a" : "b";
            replicas.add(new Replica(
                    name,
                    settings.work().resolve("replica-" + name),
                    settings.jar(),
                    b + 11 + i,
                    tokenFile,
                    replicaProperties(b + 5 + i, b + 7 + i)));
        }
        front = new FaultProxy("front", b + 10, List.of(b + 11, b + 12)).start();
        // The first replica creates the schema and the first admin token; the second starts once it is ready.
        replicas.get(0).start();
        replicas.get(0).awaitReady(Duration.ofMinutes(5));
        replicas.get(1).start();
        replicas.get(1).awaitReady(Duration.ofMinutes(5));
        token = replicas.get(0).token();
        topics = new Topics(kafka.bootstrap());
        topics.start(this::answer);
        for (int i = 0; i < 250; i++) {
            telemetryNodes.add("faults-gpu-" + i);
        }
        load = new Load(
                kafka.bootstrap(),
                ledger,
                "http://127.0.0.1:" + (b + 10),
                token,
                settings.rate(),
                settings.lifecycleRate(),
                telemetryNodes);
        java.time.Instant now = java.time.Instant.now();
        for (String node : telemetryNodes) {
            load.send(new Workload.Pending(
                    Events.nodeRegistered("setup-reg-" + node, node, "faults-gpu", now),
                    node,
                    new Ledger.Entry(
                            "setup", "setup-reg-" + node, Events.FLEET_SOURCE, Ledger.Kind.NODE, node, null, "kafka")));
        }
        for (String node : drainNodes()) {
            load.send(new Workload.Pending(
                    Events.nodeRegistered("setup-reg-" + node, node, "faults-drain", now),
                    node,
                    new Ledger.Entry(
                            "setup", "setup-reg-" + node, Events.FLEET_SOURCE, Ledger.Kind.NODE, node, null, "kafka")));
        }
        load.flush(Duration.ofSeconds(30));
        load.start();
    }

    private List<String> replicaProperties(int pgPort, int kubePort) {
        List<String> p = new ArrayList<>(List.of(
                "-Dquarkus.datasource.jdbc.url=" + postgres.jdbcUrl(pgPort),
                "-Dquarkus.datasource.username=postgres",
                "-Dlifeline.kafka.bootstrap-servers=" + kafka.bootstrap(),
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off",
                "-Dlifeline.connectors.kubernetes.enabled=true",
                "-Dquarkus.kubernetes-client.api-server-url=http://127.0.0.1:" + kubePort + "/",
                "-Dquarkus.kubernetes-client.trust-certs=true"));
        for (String kind : List.of("nodes", "pods", "events", "pytorchjobs", "kueue", "volcano")) {
            p.add("-Dlifeline.connectors.kubernetes." + kind + ".enabled=false");
        }
        return p;
    }

    /**
     * The stand-in trainers' answer to a checkpoint command: a completed checkpoint of the job, one step further
     * than any before, over Kafka, entered in the ledger under the scenario the job belongs to.
     */
    private void answer(com.fasterxml.jackson.databind.JsonNode command) {
        String job = command.path("subject").asText();
        String name = job.substring(job.indexOf('/') + 1);
        String scenario = name.contains("-") ? name.substring(0, name.indexOf('-')) : "setup";
        long step = answeredSteps.merge(job, 1000L, Long::sum);
        String id = scenario + "-ans-" + answers.incrementAndGet();
        load.send(new Workload.Pending(
                Events.checkpointCompleted(id, job, id, step, java.time.Instant.now()),
                job,
                new Ledger.Entry(scenario, id, "trainer/" + job, Ledger.Kind.CHECKPOINT, job, id, "kafka")));
    }

    Replica replica(int i) {
        return replicas.get(i);
    }

    Replica other(Replica r) {
        return replicas.get(0) == r ? replicas.get(1) : replicas.get(0);
    }

    int indexOf(Replica r) {
        return replicas.indexOf(r);
    }

    Connection db() throws SQLException {
        return postgres.connect();
    }

    /** The lease holder and its term, when its lease is live: {@code holder} starts with the JVM's pid. */
    record Lease(String holder, long term) {
        long pid() {
            return Long.parseLong(holder.substring(0, holder.indexOf('@')));
        }
    }

    Lease lease() {
        try (Connection c = db();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT holder, term FROM leader_term WHERE name = 'lifeline' AND expires_at > now()")) {
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getString(1) != null ? new Lease(rs.getString(1), rs.getLong(2)) : null;
            }
        } catch (SQLException e) {
            return null;
        }
    }

    /** The replica that leads now (waits up to a minute for a leader). */
    Replica leader() throws Exception {
        Lease l = Waits.until("a leader", Duration.ofSeconds(60), this::lease);
        for (Replica r : replicas) {
            if (r.alive() && r.pid() == l.pid()) {
                return r;
            }
        }
        throw new IllegalStateException("the lease holder " + l.holder() + " is no replica of this suite");
    }

    @Override
    public void close() {
        if (load != null) {
            load.close();
        }
        if (topics != null) {
            topics.close();
        }
        for (Replica r : replicas) {
            try {
                if (r.alive()) {
                    r.resume();
                    r.stop();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (FaultProxy p : pgProxies) {
            p.close();
        }
        for (FaultProxy p : kubeProxies) {
            p.close();
        }
        if (front != null) {
            front.close();
        }
        Child.endAllNow();
    }
}
