package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.codec.Refusal;
import io.lifeline.config.KafkaConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.OffsetStore;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.ingest.NotAppliedLog;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

/**
 * Kafka ingest: CloudEvents keyed by subject, read by the {@link DurableConsumerLoop}; valid events go to the
 * gateway, the others (and those the gateway refuses) to the dead-letter topic with the reason in the
 * {@code lifeline.dlq.reason} header. Offsets are committed only once every event of a poll is durably stored (or
 * dead-lettered), in order, so delivery is at least once; redeliveries are dropped by the gateway's dedupe and the
 * log's unique key. Large polls are decoded on parallel threads, order kept by index.
 */
@ApplicationScoped
public class KafkaIngest {

    static final String REASON_HEADER = DurableConsumerLoop.REASON_HEADER;
    private static final Logger LOG = Logger.getLogger(KafkaIngest.class);
    private static final int DECODE_CHUNK = 500;

    private final KafkaConfig config;
    private final IngestPipeline pipeline;
    private final RecordDecoder decoder;
    private final Counter deadLettered;
    private final Counter rejected;
    private final ExecutorService[] decoders;
    private final OffsetStore offsets;
    private volatile DurableConsumerLoop loop;

    KafkaIngest(
            KafkaConfig config,
            IngestPipeline pipeline,
            EventCodec codec,
            MeterRegistry registry,
            OffsetStore offsets) {
        this.offsets = offsets;
        this.config = config;
        this.pipeline = pipeline;
        this.decoder = new RecordDecoder(codec);
        this.deadLettered = Counter.builder("lifeline_ingest_dead_lettered_events")
                .tag("topic", config.dlqTopic())
                .description("Kafka records sent to the dead-letter topic")
                .register(registry);
        this.rejected = Counter.builder("lifeline_ingest_rejected_events")
                .tag("transport", "kafka")
                .description("Events rejected as invalid")
                .register(registry);
        io.micrometer.core.instrument.Gauge.builder("lifeline_ingest_kafka_consumer_up", this, k -> k.up() ? 1 : 0)
                .description("1 while the Kafka ingest consumer is polling, 0 while it is down or restarting")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "lifeline_ingest_kafka_consumer_restarts", this, KafkaIngest::restarts)
                .description("Times the Kafka ingest consumer was made afresh after failures")
                .register(registry);
        int threads =
                Math.max(1, config.decodeThreads().orElse(Runtime.getRuntime().availableProcessors()));
        this.decoders = new ExecutorService[threads];
        ThreadFactory decoderThreads = Threads.daemon("lifeline-kafka-decode");
        for (int i = 0; i < threads; i++) {
            decoders[i] = Executors.newSingleThreadExecutor(decoderThreads);
        }
    }

    void onOpened(@Observes IngestOpened opened) {
        config.bootstrapServers().ifPresent(this::start);
    }

    synchronized void start(String servers) {
        if (loop != null && loop.running()) {
            return;
        }
        loop = new DurableConsumerLoop(
                new DurableConsumerLoop.Settings(
                        "ingest",
                        config.groupId(),
                        config.topics(),
                        config.dlqTopic(),
                        config.maxInFlightBatches(),
                        config.retryBackoff()),
                () -> KafkaClients.consumer(servers, config.properties(), config.groupId(), config.maxPollRecords()),
                () -> KafkaClients.deadLetterProducer(servers, config.properties()),
                this::begin,
                KafkaClients.storedOffsets(offsets, config.groupId()),
                () -> {
                    rejected.increment();
                    deadLettered.increment();
                },
                pipeline::isOpen);
        loop.start();
        LOG.infof(
                "Kafka ingest started: topics %s, group %s, dead letters to %s",
                config.topics(), config.groupId(), config.dlqTopic());
    }

    /** Decodes a poll and submits its events; records that are not events, or are refused, are dead-lettered. */
    private DurableConsumerLoop.PollWork begin(List<ConsumerRecord<byte[], byte[]>> records, ConsumedOffsets offsets) {
        Object[] decoded = decodeAll(records);
        List<Event> events = new ArrayList<>(records.size());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.size());
        List<DurableConsumerLoop.DeadLetter> undecodable = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (decoded[i] instanceof Event e) {
                events.add(e);
                sources.add(records.get(i));
            } else {
                undecodable.add(new DurableConsumerLoop.DeadLetter(records.get(i), (String) decoded[i]));
            }
        }
        return new Submission(events, sources, undecodable, offsets);
    }

    /** One poll's events on their way to the gateway. */
    private final class Submission implements DurableConsumerLoop.PollWork {
        private final List<Event> events;
        /** The record each event came from, by index: a refused event is dead-lettered as its record. */
        private final List<ConsumerRecord<byte[], byte[]>> sources;

        private final List<DurableConsumerLoop.DeadLetter> undecodable;
        private final ConsumedOffsets offsets;
        private CompletableFuture<IngestReceipt> stored;

        Submission(
                List<Event> events,
                List<ConsumerRecord<byte[], byte[]>> sources,
                List<DurableConsumerLoop.DeadLetter> undecodable,
                ConsumedOffsets offsets) {
            this.offsets = offsets;
            this.events = events;
            this.sources = sources;
            this.undecodable = undecodable;
            retry();
        }

        @Override
        public CompletableFuture<?> stored() {
            return stored;
        }

        @Override
        @SuppressWarnings("FutureReturnValueIgnored") // NotAppliedLog writes down what was not applied
        public void retry() {
            // Even a poll of nothing but undecodable records moves its offsets forward in the store.
            stored = pipeline.submit(events, offsets).toCompletableFuture();
            // The consumer does not wait for the model: what it did not apply is written down once it is applied.
            stored.thenAccept(r -> r.applied()
                    .thenAccept(a -> NotAppliedLog.record("kafka", events, a, i -> {
                        ConsumerRecord<byte[], byte[]> c = sources.get(i);
                        return c.topic() + "-" + c.partition() + "@" + c.offset();
                    })));
        }

        @Override
        public List<DurableConsumerLoop.DeadLetter> deadLetters() {
            List<Refusal> refused = stored.join().rejected();
            if (refused.isEmpty()) {
                return undecodable;
            }
            List<DurableConsumerLoop.DeadLetter> all = new ArrayList<>(undecodable);
            for (Refusal r : refused) {
                all.add(new DurableConsumerLoop.DeadLetter(sources.get(r.index()), r.reason()));
            }
            return all;
        }

        @Override
        public int size() {
            return events.size();
        }
    }

    /** Decodes a poll's records in order: the event, or the reason it is not one. */
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

    /** Whether Kafka ingest is configured and its consumer polling (readiness, the {@code _up} gauge). */
    public boolean up() {
        DurableConsumerLoop l = loop;
        return l != null && l.up();
    }

    /** Whether Kafka ingest is configured at all. */
    public boolean configured() {
        return config.bootstrapServers().isPresent();
    }

    /** Times the consumer was made afresh after a failure. */
    public long restarts() {
        DurableConsumerLoop l = loop;
        return l == null ? 0 : l.restarts();
    }

    /** Stops consuming (tests: a consumer that is down); {@link #start} starts it again. */
    void stopConsumer() {
        DurableConsumerLoop l = loop;
        if (l != null) {
            l.stop();
        }
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        stopConsumer();
        for (ExecutorService d : decoders) {
            d.shutdown();
        }
    }
}
