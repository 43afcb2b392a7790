package io.lifeline.connector.outbound.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.config.KafkaConfig;
import io.lifeline.connector.outbound.kafka.KafkaCommandSink;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Commands to a Kafka broker that is down, then back: a real KRaft broker of this test's own (the shared test broker
 * must stay up for the others), stopped and started again on the same port. A send while it is down is not
 * confirmed: it fails with the producer's reason once the send timeout has passed, the other channels take the
 * command anyway, and an attempt after the broker is back is confirmed and the record is on the topic.
 */
class KafkaCommandSinkTest {

    private static final String TOPIC = "lifeline.commands";
    private static KafkaClusterTestKit cluster;

    /** A channel that takes every command, as the agent queue does while PostgreSQL is up. */
    private static final class Taking implements CommandChannel {
        final List<TrainerCommand> took = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "agent queue";
        }

        @Override
        public boolean accepts(TrainerCommand command) {
            return true;
        }

        @Override
        public CompletionStage<Void> send(TrainerCommand command) {
            took.add(command);
            return CompletableFuture.completedFuture(null);
        }
    }

    @BeforeAll
    static void broker() throws Exception {
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> {});
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> {});
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(false)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopBroker() throws Exception {
        cluster.close();
    }

    @Test
    void aSendWhileTheBrokerIsDownIsNotConfirmedAndOneAfterItIsBackIs() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        BrokerServer broker = cluster.brokers().values().iterator().next();
        broker.shutdown();
        broker.awaitShutdown();

        KafkaCommandSink kafka = new KafkaCommandSink(kafkaConfig(bootstrap), commandConfig(Duration.ofSeconds(2)));
        Taking agents = new Taking();
        TrainerCommands sink = new TrainerCommands(List.of(kafka, agents), Clock.systemUTC());
        String job = "team-" + UUID.randomUUID().toString().substring(0, 8) + "/echo";
        TrainerCommand command = new TrainerCommand(
                "act-1:checkpoint:" + job,
                job,
                CommandType.PREPARE_EXIT,
                Map.of("reason", "drain gpu-7"),
                Instant.now(),
                Instant.now().plusSeconds(600));
        try {
            SendAttempt down =
                    sink.send(command, Set.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(down.confirmed())
                    .as("the other channel took it all the same")
                    .containsExactly("agent queue");
            assertThat(down.failed()).containsOnlyKeys("Kafka topic");
            assertThat(down.failed().get("Kafka topic")).contains("TimeoutException");

            broker.startup();
            cluster.waitForReadyBrokers();
            assertThat(cluster.bootstrapServers()).as("back on the same port").isEqualTo(bootstrap);

            // What the action step does: try the channels that failed again until one attempt is confirmed.
            AtomicReference<SendAttempt> again = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        again.set(sink.send(command, down.confirmed())
                                .toCompletableFuture()
                                .get(30, TimeUnit.SECONDS));
                        return again.get().complete();
                    });
            assertThat(again.get().confirmed()).containsExactly("Kafka topic");
            assertThat(agents.took)
                    .as("not sent again to the channel that had it")
                    .hasSize(1);

            List<ConsumerRecord<byte[], byte[]>> records = records(bootstrap, job);
            assertThat(records).isNotEmpty();
            assertThat(records)
                    .allSatisfy(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8))
                            .contains("\"id\":\"" + command.id() + "\"")
                            .contains("lifeline.command.prepare_exit"));
        } finally {
            kafka.close();
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(String bootstrap, String key) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", "probe-" + UUID.randomUUID());
        c.put("auto.offset.reset", "earliest");
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.currentTimeMillis() + 20_000;
            while (found.isEmpty() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        found.add(r);
                    }
                }
            }
        }
        return found;
    }

    /** The settings this sink reads, whatever else the mapping grows to hold. */
    private static KafkaConfig kafkaConfig(String bootstrap) {
        return (KafkaConfig) Proxy.newProxyInstance(
                KafkaConfig.class.getClassLoader(),
                new Class<?>[] {KafkaConfig.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "bootstrapServers" -> Optional.of(bootstrap);
                    case "properties" -> Map.of();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static CommandConfig commandConfig(Duration sendTimeout) {
        return (CommandConfig) Proxy.newProxyInstance(
                CommandConfig.class.getClassLoader(),
                new Class<?>[] {CommandConfig.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "topic" -> TOPIC;
                    case "sendTimeout" -> sendTimeout;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
