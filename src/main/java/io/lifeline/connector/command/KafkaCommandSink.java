package io.lifeline.connector.command;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.config.KafkaConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
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
 * pass-through client properties {@code lifeline.kafka.properties.*}. Sending does not wait for the broker.
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
    private KafkaProducer<byte[], byte[]> producer;

    KafkaCommandSink(KafkaConfig kafka, CommandConfig config) {
        this.kafka = kafka;
        this.config = config;
    }

    /** Whether Kafka is configured. */
    public boolean enabled() {
        return kafka.bootstrapServers().isPresent();
    }

    /** Hands the command to the producer; a failed send is logged with the command and job. */
    @Override
    public void send(TrainerCommand command) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(config.topic(),
                command.job().getBytes(StandardCharsets.UTF_8), CommandCloudEvents.bytes(command));
        record.headers().add("content-type", CommandCloudEvents.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
        producer().send(record, (meta, error) -> {
            if (error != null) {
                LOG.warnf("Command %s (%s) for %s not written to %s: %s", command.id(), command.type().wire(),
                        command.job(), config.topic(), error.toString());
            }
        });
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Properties p = new Properties();
            p.put("bootstrap.servers", kafka.bootstrapServers().orElseThrow());
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

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }
}
