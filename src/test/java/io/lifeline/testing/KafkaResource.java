package io.lifeline.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/** A real single-node KRaft Kafka broker inside the test JVM, started once. */
public class KafkaResource implements QuarkusTestResourceLifecycleManager {

    private static KafkaClusterTestKit cluster;

    @Override
    public synchronized Map<String, String> start() {
        if (cluster == null) {
            // A broker shutting down inside the test JVM must never halt or exit it (that fails the test run).
            org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> {});
            org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> {});
            try {
                KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                                .setCombined(true)
                                .setNumBrokerNodes(1)
                                .setNumControllerNodes(1)
                                .build())
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("num.partitions", "4")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .build();
                kit.format();
                kit.startup();
                kit.waitForReadyBrokers();
                cluster = kit;
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test Kafka broker", e);
            }
        }
        return Map.of("lifeline.kafka.bootstrap-servers", bootstrapServers());
    }

    public static String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public synchronized void stop() {
        // Closed with the application that started it, before the JVM exits, so its threads end cleanly.
        if (cluster != null) {
            try {
                cluster.close();
            } catch (Exception e) {
                System.err.println("Test Kafka broker did not close cleanly: " + e);
            }
            cluster = null;
        }
    }
}
