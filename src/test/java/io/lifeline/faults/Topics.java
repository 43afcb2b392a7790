package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What Lifeline writes to Kafka, read back by the suite: the dead-letter topic (each record's suite id and reason) and
 * the command topic, where a stand-in for the trainers answers every checkpoint command with a completed checkpoint
 * (unless the suite holds the answers for a job, to keep an action waiting) and counts how often each command came.
 */
final class Topics implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A dead letter: the suite's id of the record (null if it had none) and Lifeline's reason. */
    record DeadLetter(String id, String reason) {}

    private final String bootstrap;
    private final Map<String, List<String>> deadLetters = new ConcurrentHashMap<>();
    private final Map<String, Integer> commandsById = new ConcurrentHashMap<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Map<String, JsonNode> waiting = new ConcurrentHashMap<>();
    private final AtomicLong answers = new AtomicLong();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    private volatile Consumer<JsonNode> answer;

    Topics(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** Starts reading; {@code answerer} gets every checkpoint command not held (the suite answers it with an event). */
    void start(Consumer<JsonNode> answerer) {
        this.answer = answerer;
        threads.add(read("lifeline.events.dlq", this::onDeadLetter));
        threads.add(read("lifeline.commands", this::onCommand));
    }

    private Thread read(String topic, Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        Thread t = new Thread(
                () -> {
                    Properties p = new Properties();
                    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
                    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
                    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
                    while (running) {
                        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
                            List<TopicPartition> parts = new ArrayList<>();
                            c.partitionsFor(topic, Duration.ofSeconds(30))
                                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
                            c.assign(parts);
                            c.seekToBeginning(parts);
                            // Read from the start every time the client is made (after a broker restart), skipping what
                            // was seen.
                            while (running) {
                                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                                    if (r.offset() >= positions.getOrDefault(tp, 0L)) {
                                        positions.put(tp, r.offset() + 1);
                                        handler.accept(r);
                                    }
                                }
                            }
                        } catch (RuntimeException e) {
                            sleep(1000);
                        }
                    }
                },
                "faults-read-" + topic);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void onDeadLetter(ConsumerRecord<byte[], byte[]> r) {
        String id = header(r, Load.ID_HEADER);
        String reason = header(r, "lifeline.dlq.reason");
        deadLetters
                .computeIfAbsent(id == null ? "" : id, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(reason == null ? "" : reason);
    }

    private void onCommand(ConsumerRecord<byte[], byte[]> r) {
        try {
            JsonNode c = JSON.readTree(r.value());
            String id = c.path("id").asText();
            commandsById.merge(id, 1, Integer::sum);
            String type = c.path("type").asText();
            if (!type.contains("checkpoint") && !type.contains("prepare")) {
                return;
            }
            if (held.contains(c.path("subject").asText())) {
                waiting.put(id, c);
            } else {
                answers.incrementAndGet();
                answer.accept(c);
            }
        } catch (java.io.IOException e) {
            // not a command this suite understands
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The trainers of {@code job} do not answer its checkpoint commands until {@link #release}. */
    void hold(String job) {
        held.add(job);
    }

    /** The trainers of {@code job} answer its held commands now, and its later ones at once. */
    @SuppressWarnings("ModifyCollectionInEnhancedForLoop") // a ConcurrentHashMap: its iterator allows removal
    void release(String job) {
        held.remove(job);
        for (Map.Entry<String, JsonNode> e : waiting.entrySet()) {
            if (job.equals(e.getValue().path("subject").asText()) && waiting.remove(e.getKey()) != null) {
                answers.incrementAndGet();
                answer.accept(e.getValue());
            }
        }
    }

    /** Whether a checkpoint command for {@code job} is waiting to be answered. */
    boolean commandWaiting(String job) {
        return waiting.values().stream()
                .anyMatch(c -> job.equals(c.path("subject").asText()));
    }

    /** Reasons given for the dead letters of {@code id}. */
    List<String> deadLetters(String id) {
        return deadLetters.getOrDefault(id, List.of());
    }

    /** How many times each command of {@code actionId} was written to the command topic. */
    Map<String, Integer> commandsOf(String actionId) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        commandsById.forEach((k, v) -> {
            if (k.startsWith(actionId + ":")) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
    }
}
