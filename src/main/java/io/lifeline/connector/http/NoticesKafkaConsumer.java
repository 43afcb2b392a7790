package io.lifeline.connector.http;

import io.lifeline.config.KafkaConfig;
import io.lifeline.config.NoticesConnectorConfig;
import io.lifeline.ingest.kafka.KafkaClients;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.store.RetryLaterException;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * Cloud notices and torchelastic lines in their own formats on a Kafka topic ({@code lifeline.notices}), for
 * setups that already relay them there (an SQS or EventBridge bridge, a log shipper). Simple on purpose: one
 * thread polls, translates every record ({@link NoticeRecords}), submits the events of the poll as one batch and
 * waits until the pipeline has stored them (a batch it pushes back is retried), sends records nothing usable came
 * out of to {@code lifeline.notices.dlq} with the reason in {@code lifeline.dlq.reason}, waits for those sends, and
 * only then commits the poll's offsets. Delivery is at least once; the ids the translators derive make a
 * redelivery a duplicate.
 */
@ApplicationScoped
public class NoticesKafkaConsumer {

    static final String REASON_HEADER = "lifeline.dlq.reason";
    private static final Logger LOG = Logger.getLogger(NoticesKafkaConsumer.class);

    private final KafkaConfig kafka;
    private final NoticesConnectorConfig config;
    private final NoticeRecords records;
    private final ConnectorIngest ingest;
    private final Clock clock;
    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<byte[], byte[]> producer;
    private Thread thread;

    NoticesKafkaConsumer(KafkaConfig kafka, NoticesConnectorConfig config, NoticeRecords records, ConnectorIngest ingest,
                         Clock clock) {
        this.kafka = kafka;
        this.config = config;
        this.records = records;
        this.ingest = ingest;
        this.clock = clock;
    }

    void onOpened(@Observes IngestOpened opened) {
        if (config.enabled()) {
            kafka.bootstrapServers().ifPresent(this::start);
        }
    }

    synchronized void start(String servers) {
        if (running) {
            return;
        }
        consumer = KafkaClients.consumer(servers, kafka.properties(), config.groupId(), config.maxPollRecords());
        producer = KafkaClients.deadLetterProducer(servers, kafka.properties());
        running = true;
        thread = new Thread(this::run, "lifeline-notices-kafka");
        thread.setDaemon(true);
        thread.start();
        LOG.infof("Notices over Kafka: topic %s, group %s, dead letters to %s", config.topic(), config.groupId(),
                config.dlqTopic());
    }

    private void run() {
        try {
            consumer.subscribe(List.of(config.topic()));
            while (running) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(200));
                if (!polled.isEmpty()) {
                    try {
                        process(polled);
                    } catch (RuntimeException e) {
                        if (!running) {
                            break;
                        }
                        // Nothing of this poll is committed: read it again after a pause.
                        LOG.errorf(e, "Notices poll of %d records failed; reading it again", polled.count());
                        rewind(polled);
                        pause(config.retryBackoff());
                    }
                }
            }
        } catch (WakeupException e) {
            LOG.debug("Notices consumer woken up to stop");
        } catch (RuntimeException e) {
            LOG.error("Notices over Kafka stopped on an unexpected error", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** Translates, submits, dead-letters and commits one poll; returns once the offsets are committed. */
    private void process(ConsumerRecords<byte[], byte[]> polled) {
        Instant now = clock.instant();
        ConnectorBatch batch = new ConnectorBatch("kafka");
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(polled.count());
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : polled) {
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            int index = list.size();
            list.add(r);
            records.translate(r.value() == null ? new byte[0] : r.value(), headers(r), now, batch, index);
        }
        awaitStored(batch);
        List<Future<RecordMetadata>> dead = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!batch.usable(i)) {
                String reason = reasonOf(batch.errors(), i);
                if (reason != null) {
                    dead.add(deadLetter(list.get(i), reason));
                }
            }
        }
        try {
            for (Future<RecordMetadata> f : dead) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("notices dead-letter topic unavailable: " + e.getCause().getMessage(), e);
        }
        consumer.commitSync(offsets);
    }

    /** Waits until the gateway has stored the batch's events; a batch it pushes back is submitted again after a pause. */
    private void awaitStored(ConnectorBatch batch) {
        while (true) {
            try {
                ingest.submit(batch).toCompletableFuture().join();
                return;
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof RetryLaterException) || !running) {
                    throw e;
                }
                LOG.warnf("Pipeline pushed back %d notice events (%s); retrying", batch.events().size(),
                        e.getCause().getMessage());
                pause(config.retryBackoff());
            }
        }
    }

    private void rewind(ConsumerRecords<byte[], byte[]> polled) {
        for (TopicPartition tp : polled.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> rs = polled.records(tp);
            consumer.seek(tp, rs.get(0).offset());
        }
    }

    private void pause(Duration d) {
        // Keep the group membership alive while waiting: poll with every partition paused.
        consumer.pause(consumer.assignment());
        long until = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < until) {
            consumer.poll(Duration.ofMillis(50));
        }
        consumer.resume(consumer.paused());
    }

    private Future<RecordMetadata> deadLetter(ConsumerRecord<byte[], byte[]> r, String reason) {
        LOG.debugf("Dead-lettering notice %s-%d@%d: %s", r.topic(), r.partition(), r.offset(), reason);
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(config.dlqTopic(), null, r.key(), r.value(), r.headers());
        out.headers().add(REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.topic", r.topic().getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.partition", String.valueOf(r.partition()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.offset", String.valueOf(r.offset()).getBytes(StandardCharsets.UTF_8));
        return producer.send(out);
    }

    private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> r) {
        Map<String, String> h = new HashMap<>();
        for (Header header : r.headers()) {
            if (header.key().startsWith("lifeline.") && header.value() != null) {
                h.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        return h;
    }

    /** "reason: detail" of every error of record {@code index}, or null when it had none. */
    private static String reasonOf(List<ItemError> errors, int index) {
        StringBuilder sb = null;
        for (ItemError e : errors) {
            if (e.index() == index) {
                if (sb == null) {
                    sb = new StringBuilder();
                } else {
                    sb.append("; ");
                }
                sb.append(e.reason()).append(": ").append(e.detail());
            }
        }
        return sb == null ? null : sb.length() <= 1000 ? sb.toString() : sb.substring(0, 997) + "...";
    }

    @PreDestroy
    void stop() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
