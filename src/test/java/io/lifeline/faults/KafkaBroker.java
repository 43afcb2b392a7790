package io.lifeline.faults;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft Kafka broker (combined broker and controller) in a JVM of its own, started from the Kafka jars
 * of the test class path ({@code kafka.Kafka}), its log kept in a directory of the suite so that it can be stopped,
 * killed and started again on the same port with the same topics and offsets.
 */
final class KafkaBroker {

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String classPath;
    private Child broker;

    KafkaBroker(Path work, int port, int controllerPort, String classPath) {
        this.dir = work.resolve("kafka");
        this.port = port;
        this.controllerPort = controllerPort;
        this.classPath = classPath;
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    void start() throws Exception {
        Waits.portFree(port);
        Waits.portFree(controllerPort);
        Path config = dir.resolve("server.properties");
        if (!Files.exists(config)) {
            Files.createDirectories(dir);
            Files.writeString(
                    config,
                    String.join(
                                    "\n",
                                    "process.roles=broker,controller",
                                    "node.id=1",
                                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:"
                                            + controllerPort,
                                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                                    "controller.listener.names=CONTROLLER",
                                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                                    "inter.broker.listener.name=PLAINTEXT",
                                    "log.dirs=" + dir.resolve("data"),
                                    "num.partitions=4",
                                    "offsets.topic.replication.factor=1",
                                    "offsets.topic.num.partitions=4",
                                    "transaction.state.log.replication.factor=1",
                                    "transaction.state.log.min.isr=1",
                                    "group.initial.rebalance.delay.ms=0",
                                    "auto.create.topics.enable=true",
                                    "log.retention.hours=24",
                                    "log.segment.bytes=268435456",
                                    "")
                            + "\n");
            Process p = new ProcessBuilder(
                            java(),
                            "-Xmx256m",
                            "-cp",
                            classPath,
                            "kafka.tools.StorageTool",
                            "format",
                            "-t",
                            Uuid.randomUuid().toString(),
                            "-c",
                            config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("format.log").toFile()))
                    .start();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("Kafka storage format failed; see " + dir.resolve("format.log"));
            }
        }
        broker = Child.start(
                "kafka",
                List.of(
                        java(),
                        "-Xms256m",
                        "-Xmx768m",
                        "-XX:+UseG1GC",
                        "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                        "-cp",
                        classPath,
                        "kafka.Kafka",
                        config.toString()),
                dir,
                dir.resolve("broker.log"),
                Map.of());
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!broker.alive()) {
                throw new IllegalStateException("Kafka exited; see " + broker.log());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                if (topicsReady()) {
                    return;
                }
            } catch (Exception e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("Kafka not ready within 120 s; see " + broker.log());
    }

    private boolean topicsReady() {
        try (Admin admin = admin()) {
            admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Creates the topics Lifeline and the suite use (4 partitions for events, as the shipped deployment). */
    void createTopics() throws Exception {
        try (Admin admin = admin()) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> topics = new java.util.ArrayList<>();
            for (String t : List.of("lifeline.events", "lifeline.events.dlq", "lifeline.commands")) {
                if (!existing.contains(t)) {
                    topics.add(new NewTopic(t, 4, (short) 1));
                }
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
    }

    Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        return Admin.create(p);
    }

    /** A graceful stop (SIGTERM: the broker shuts down cleanly). */
    void stop() throws InterruptedException {
        broker.stop("TERM", Duration.ofSeconds(60));
    }

    void kill() throws InterruptedException {
        broker.kill();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
