package io.lifeline.connector.inbound.kafka;

import io.lifeline.codec.Refusal;
import io.lifeline.config.KafkaConfig;
import io.lifeline.config.NoticesConnectorConfig;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.NoticeRecords;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.OffsetStore;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.kafka.DurableConsumerLoop;
import io.lifeline.ingest.kafka.KafkaClients;
import io.lifeline.runtime.IngestOpened;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * Cloud notices and torchelastic lines in their own formats on a Kafka topic ({@code lifeline.notices}), for
 * setups that already relay them there (an SQS or EventBridge bridge, a log shipper). Read by the one
 * {@link DurableConsumerLoop}, one poll at a time: every record is translated ({@link NoticeRecords}), the events of
 * the poll are submitted as one batch, records nothing usable came out of go to {@code lifeline.notices.dlq} with the
 * reason in {@code lifeline.dlq.reason}, and only then are the poll's offsets committed. Delivery is at least once;
 * the ids the translators derive make a redelivery a duplicate.
 */
@ApplicationScoped
public class NoticesKafkaConsumer {

    private static final Logger LOG = Logger.getLogger(NoticesKafkaConsumer.class);

    private final KafkaConfig kafka;
    private final NoticesConnectorConfig config;
    private final NoticeRecords records;
    private final ConnectorIngest ingest;
    private final Clock clock;
    private final OffsetStore offsets;
    private volatile DurableConsumerLoop loop;

    NoticesKafkaConsumer(
            KafkaConfig kafka,
            NoticesConnectorConfig config,
            NoticeRecords records,
            ConnectorIngest ingest,
            Clock clock,
            OffsetStore offsets) {
        this.offsets = offsets;
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
        if (loop != null && loop.running()) {
            return;
        }
        loop = new DurableConsumerLoop(
                new DurableConsumerLoop.Settings(
                        "notices",
                        config.groupId(),
                        List.of(config.topic()),
                        config.dlqTopic(),
                        1,
                        config.retryBackoff()),
                () -> KafkaClients.consumer(servers, kafka.properties(), config.groupId(), config.maxPollRecords()),
                () -> KafkaClients.deadLetterProducer(servers, kafka.properties()),
                this::begin,
                KafkaClients.storedOffsets(offsets, config.groupId()),
                () -> {},
                () -> false);
        loop.start();
        LOG.infof(
                "Notices over Kafka: topic %s, group %s, dead letters to %s",
                config.topic(), config.groupId(), config.dlqTopic());
    }

    /** Translates a poll and submits its events as one batch. */
    private DurableConsumerLoop.PollWork begin(List<ConsumerRecord<byte[], byte[]>> list, ConsumedOffsets offsets) {
        Instant now = clock.instant();
        ConnectorBatch batch = new ConnectorBatch("kafka");
        for (int i = 0; i < list.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = list.get(i);
            records.translate(r.value() == null ? new byte[0] : r.value(), headers(r), now, batch, i);
        }
        return new DurableConsumerLoop.PollWork() {
            private CompletableFuture<?> stored = submit();

            private CompletableFuture<?> submit() {
                return ingest.submit(batch, offsets).toCompletableFuture();
            }

            @Override
            public CompletableFuture<?> stored() {
                return stored;
            }

            @Override
            public void retry() {
                stored = submit();
            }

            @Override
            public List<DurableConsumerLoop.DeadLetter> deadLetters() {
                List<DurableConsumerLoop.DeadLetter> dead = new ArrayList<>();
                List<Refusal> errors = ConnectorIngest.errorsOf(batch);
                for (int i = 0; i < list.size(); i++) {
                    String reason = batch.usable(i) ? null : reasonOf(errors, i);
                    if (reason != null) {
                        dead.add(new DurableConsumerLoop.DeadLetter(list.get(i), reason));
                    }
                }
                return dead;
            }

            @Override
            public int size() {
                return batch.events().size();
            }
        };
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
    private static String reasonOf(List<Refusal> errors, int index) {
        StringBuilder sb = null;
        for (Refusal e : errors) {
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

    /**
     * Stops with the other {@link ShutdownOrder#BACKGROUND} work, as the event consumer does
     * ({@code ingest.kafka.KafkaIngest}): the loop reads its stored offsets from the database.
     */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        DurableConsumerLoop l = loop;
        if (l != null) {
            l.stop();
        }
    }
}
