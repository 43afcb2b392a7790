package io.lifeline.connector.outbound.kafka;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.config.KafkaConfig;
import io.lifeline.connector.outbound.command.CommandCloudEvents;
import io.lifeline.connector.outbound.command.CommandConfig;
import io.lifeline.platform.Threads;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

/**
 * Sends commands to the Kafka topic {@code lifeline.commands.topic}, keyed by job (so one job's commands stay in
 * order on one partition), as structured-mode CloudEvents ({@code content-type: application/cloudevents+json}).
 * On only when Kafka is configured ({@code lifeline.kafka.bootstrap-servers}), like Kafka ingest; the producer
 * (idempotent, acks from all in-sync replicas, no linger: a command is latency-bound) is made on first use with the
 * pass-through client properties {@code lifeline.kafka.properties.*}.
 *
 * <p>A send is confirmed: its future completes when the brokers acknowledged the record, or fails once
 * {@code lifeline.commands.send-timeout} has passed without that (broker down, topic missing, not authorised), and
 * the action step tries again. The producer may block for metadata in {@code send}, so that call runs on this
 * sink's own thread, never on the action's worker.
 */
@ApplicationScoped
public class KafkaCommandSink implements CommandChannel {

    @Override
    public String name() {
        return "Kafka topic";
    }

    @Override
    public boolean accepts(TrainerCommand command) {
        return enabled();
    }

    private static final Logger LOG = Logger.getLogger(KafkaCommandSink.class);

    private final KafkaConfig kafka;
    private final CommandConfig config;
    private final ExecutorService sender = Executors.newSingleThreadExecutor(Threads.daemon("lifeline-command-sender"));
    private KafkaProducer<byte[], byte[]> producer;

    public KafkaCommandSink(KafkaConfig kafka, CommandConfig config) {
        this.kafka = kafka;
        this.config = config;
    }

    /** Whether Kafka is configured. */
    public boolean enabled() {
        return kafka.bootstrapServers().isPresent();
    }

    /** Hands the command to the producer; completes when the brokers acknowledged it. */
    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // the send's callback completes written with its outcome
    public CompletionStage<Void> send(TrainerCommand command) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                config.topic(), command.job().getBytes(StandardCharsets.UTF_8), CommandCloudEvents.bytes(command));
        record.headers().add("content-type", CommandCloudEvents.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
        CompletableFuture<Void> written = new CompletableFuture<>();
        try {
            sender.execute(() -> {
                try {
                    producer().send(record, (meta, error) -> {
                        if (error != null) {
                            written.completeExceptionally(error);
                        } else {
                            written.complete(null);
                        }
                    });
                } catch (RuntimeException e) {
                    written.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            written.completeExceptionally(new IllegalStateException("the command sink is closed"));
        }
        return written;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            int timeout = (int) Math.max(
                    1000, Math.min(Integer.MAX_VALUE, config.sendTimeout().toMillis()));
            Properties p = new Properties();
            p.put("bootstrap.servers", kafka.bootstrapServers().orElseThrow());
            // One attempt is bounded as a whole; the pass-through properties may still set these differently.
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(timeout));
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(Math.min(timeout, 30_000)));
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(timeout));
            p.putAll(kafka.properties());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "lifeline-commands");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(p);
            LOG.infof("Trainer commands go to Kafka topic %s", config.topic());
        }
        return producer;
    }

    /** Stops the sender thread and closes the producer (waiting up to 5 s for records in flight). */
    @PreDestroy
    public void close() {
        sender.shutdownNow();
        synchronized (this) {
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
                producer = null;
            }
        }
    }
}
