package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.config.KafkaConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.store.RetryLaterException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

/**
 * Kafka ingest: one consumer thread reads CloudEvents keyed by subject, hands valid ones to the pipeline and
 * sends invalid ones to the dead-letter topic with the reason in the {@code lifeline.dlq.reason} header.
 * Offsets are committed only once every event of a poll is durably stored (or dead-lettered), in order, so
 * delivery is at least once; redeliveries are dropped by the pipeline's dedupe and the log's unique key.
 */
@ApplicationScoped
public class KafkaIngest {

    static final String REASON_HEADER = "lifeline.dlq.reason";
    private static final Logger LOG = Logger.getLogger(KafkaIngest.class);
    private static final int DECODE_CHUNK = 500;

    private final KafkaConfig config;
    private final IngestPipeline pipeline;
    private final RecordDecoder decoder;
    private final Counter deadLettered;
    private final Counter rejected;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean running;
    private Thread thread;
    private KafkaProducer<byte[], byte[]> producer;
    private final ExecutorService[] decoders;

    KafkaIngest(KafkaConfig config, IngestPipeline pipeline, EventCodec codec, MeterRegistry registry) {
        this.config = config;
        this.pipeline = pipeline;
        this.decoder = new RecordDecoder(codec);
        this.deadLettered = Counter.builder("lifeline_ingest_dead_lettered_events").tag("topic", config.dlqTopic())
                .description("Kafka records sent to the dead-letter topic").register(registry);
        this.rejected = Counter.builder("lifeline_ingest_rejected_events").tag("transport", "kafka")
                .description("Events rejected as invalid").register(registry);
        int threads = Math.max(1, config.decodeThreads().orElse(Runtime.getRuntime().availableProcessors()));
        this.decoders = new ExecutorService[threads];
        for (int i = 0; i < threads; i++) {
            String name = "lifeline-kafka-decode-" + i;
            decoders[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
    }

    void onOpened(@Observes IngestOpened opened) {
        config.bootstrapServers().ifPresent(servers -> start(servers));
    }

    synchronized void start(String servers) {
        if (running) {
            return;
        }
        consumer = KafkaClients.consumer(servers, config.properties(), config.groupId(), config.maxPollRecords());
        producer = KafkaClients.deadLetterProducer(servers, config.properties());
        running = true;
        thread = new Thread(this::run, "lifeline-kafka-ingest");
        thread.setDaemon(true);
        thread.start();
        LOG.infof("Kafka ingest started: topics %s, group %s, dead letters to %s", config.topics(), config.groupId(),
                config.dlqTopic());
    }

    private void run() {
        try {
            consumer.subscribe(config.topics(), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    drainAndCommit();
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    LOG.debugf("Kafka partitions assigned: %s", partitions);
                }
            });
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (!records.isEmpty()) {
                    inFlight.add(process(records));
                }
                commitCompleted(inFlight.size() >= config.maxInFlightBatches());
            }
            drainAndCommit();
        } catch (WakeupException e) {
            drainAndCommit();
        } catch (RuntimeException e) {
            LOG.error("Kafka ingest stopped on an unexpected error", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
            producer.close(Duration.ofSeconds(5));
        }
    }

    private InFlight process(ConsumerRecords<byte[], byte[]> records) {
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        Object[] decoded = decodeAll(list);
        List<Event> events = new ArrayList<>(list.size());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(list.size());
        List<Future<RecordMetadata>> dlq = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = list.get(i);
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            if (decoded[i] instanceof Event e) {
                events.add(e);
                sources.add(r);
            } else {
                dlq.add(deadLetter(r, (String) decoded[i]));
            }
        }
        return new InFlight(events, sources, submit(events), dlq, offsets);
    }

    /**
     * Decodes a poll's records in order: the event, or the reason it is not one. Large polls are split over the
     * decoder threads (decoding JSON is most of the consumer's work); order is kept by index.
     */
    private Object[] decodeAll(List<ConsumerRecord<byte[], byte[]>> list) {
        Object[] out = new Object[list.size()];
        int chunks = Math.min(decoders.length, Math.max(1, list.size() / DECODE_CHUNK));
        if (chunks == 1) {
            decodeRange(list, out, 0, list.size());
            return out;
        }
        List<Future<?>> parts = new ArrayList<>(chunks);
        int per = (list.size() + chunks - 1) / chunks;
        for (int c = 0; c < chunks; c++) {
            int from = c * per;
            int to = Math.min(list.size(), from + per);
            parts.add(decoders[c].submit(() -> decodeRange(list, out, from, to)));
        }
        for (Future<?> f : parts) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("decoder failed", e.getCause());
            }
        }
        return out;
    }

    private void decodeRange(List<ConsumerRecord<byte[], byte[]>> list, Object[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            try {
                out[i] = decoder.decode(list.get(i));
            } catch (InvalidEventException ex) {
                out[i] = ex.getMessage();
            }
        }
    }

    private Future<RecordMetadata> deadLetter(ConsumerRecord<byte[], byte[]> r, String reason) {
        rejected.increment();
        deadLettered.increment();
        LOG.debugf("Dead-lettering %s-%d@%d: %s", r.topic(), r.partition(), r.offset(), reason);
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(config.dlqTopic(), null, r.key(), r.value(), r.headers());
        out.headers().add(REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.topic", r.topic().getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.partition", String.valueOf(r.partition()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.offset", String.valueOf(r.offset()).getBytes(StandardCharsets.UTF_8));
        return producer.send(out);
    }

    private CompletableFuture<IngestReceipt> submit(List<Event> events) {
        if (events.isEmpty()) {
            return CompletableFuture.completedFuture(new IngestReceipt(0, 0));
        }
        return pipeline.submit(events).toCompletableFuture();
    }

    /** Commits the offsets of the completed batches at the head of the queue; with {@code block}, waits for one. */
    private void commitCompleted(boolean block) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        while (!inFlight.isEmpty()) {
            InFlight head = inFlight.peek();
            if (!head.ingest.isDone() && !block) {
                break;
            }
            awaitDurable(head);
            commit.putAll(head.offsets);
            inFlight.poll();
            block = false;
        }
        if (!commit.isEmpty()) {
            consumer.commitSync(commit);
        }
    }

    /** Waits until the batch is stored; a batch the pipeline pushed back is retried, never skipped. */
    private void awaitDurable(InFlight batch) {
        while (true) {
            try {
                IngestReceipt receipt = batch.ingest.join();
                for (IngestReceipt.Refused r : receipt.rejected()) {
                    batch.deadLetters.add(deadLetter(batch.sources.get(r.index()), r.reason()));
                }
                for (Future<RecordMetadata> f : batch.deadLetters) {
                    f.get();
                }
                return;
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof RetryLaterException) || !running && !pipeline.isOpen()) {
                    throw e;
                }
                LOG.warnf("Pipeline pushed back a batch of %d events (%s); retrying", batch.events.size(),
                        e.getCause().getMessage());
                pauseFor(config.retryBackoff());
                batch.ingest = submit(batch.events);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("dead-letter topic unavailable: " + e.getCause().getMessage(), e);
            }
        }
    }

    private void pauseFor(Duration d) {
        // Keep the group membership alive while waiting: poll with every partition paused.
        consumer.pause(consumer.assignment());
        long until = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < until) {
            consumer.poll(Duration.ofMillis(50));
        }
        consumer.resume(consumer.paused());
    }

    private void drainAndCommit() {
        while (!inFlight.isEmpty()) {
            commitCompleted(true);
        }
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
        for (ExecutorService d : decoders) {
            d.shutdown();
        }
    }

    private static final class InFlight {
        final List<Event> events;
        /** The record each event came from, by index: a refused event is dead-lettered as its record. */
        final List<ConsumerRecord<byte[], byte[]>> sources;
        final List<Future<RecordMetadata>> deadLetters;
        final Map<TopicPartition, OffsetAndMetadata> offsets;
        CompletableFuture<IngestReceipt> ingest;

        InFlight(List<Event> events, List<ConsumerRecord<byte[], byte[]>> sources,
                 CompletableFuture<IngestReceipt> ingest, List<Future<RecordMetadata>> deadLetters,
                 Map<TopicPartition, OffsetAndMetadata> offsets) {
            this.events = events;
            this.sources = sources;
            this.ingest = ingest;
            this.deadLetters = deadLetters;
            this.offsets = offsets;
        }
    }
}
