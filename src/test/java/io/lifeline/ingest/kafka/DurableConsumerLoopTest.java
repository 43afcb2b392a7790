package io.lifeline.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.RetryLaterException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one durable consumer loop against Kafka's own mock clients: offsets are committed only after the poll is
 * stored and its dead letters sent; a push-back is retried, never skipped; a dead-letter topic that fails makes the
 * loop read the poll again instead of ending it.
 */
class DurableConsumerLoopTest {

    private static final TopicPartition TP = new TopicPartition("in", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final List<Long> handled = new CopyOnWriteArrayList<>();
    /** What the store holds as the group's next offsets, read when partitions are assigned. */
    private final Map<TopicPartition, Long> stored = new java.util.concurrent.ConcurrentHashMap<>();

    private DurableConsumerLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.stop();
        }
    }

    private void start(DurableConsumerLoop.PollHandler handler) {
        start(handler, 2);
    }

    private void start(DurableConsumerLoop.PollHandler handler, int maxInFlight) {
        loop = new DurableConsumerLoop(
                new DurableConsumerLoop.Settings(
                        "test", "g", List.of("in"), "in.dlq", maxInFlight, Duration.ofMillis(20)),
                () -> consumer,
                () -> producer,
                handler,
                partitions -> stored,
                () -> {},
                () -> false);
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(TP));
            consumer.updateBeginningOffsets(Map.of(TP, 0L));
        });
        loop.start();
    }

    private void produce(long offset, String value) {
        consumer.schedulePollTask(() -> consumer.addRecord(
                new ConsumerRecord<>("in", 0, offset, null, value.getBytes(StandardCharsets.UTF_8))));
    }

    private long committed() {
        OffsetAndMetadata o = consumer.committed(java.util.Set.of(TP)).get(TP);
        return o == null ? -1 : o.offset();
    }

    /** Work that stores at once, and dead-letters records whose value is "bad". */
    private DurableConsumerLoop.PollWork stored(
            List<ConsumerRecord<byte[], byte[]>> records, java.util.function.Supplier<CompletableFuture<?>> submit) {
        records.forEach(r -> handled.add(r.offset()));
        return new DurableConsumerLoop.PollWork() {
            private CompletableFuture<?> stored = submit.get();

            @Override
            public CompletableFuture<?> stored() {
                return stored;
            }

            @Override
            public void retry() {
                stored = submit.get();
            }

            @Override
            public List<DurableConsumerLoop.DeadLetter> deadLetters() {
                List<DurableConsumerLoop.DeadLetter> dead = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if ("bad".equals(new String(r.value(), StandardCharsets.UTF_8))) {
                        dead.add(new DurableConsumerLoop.DeadLetter(r, "not an event"));
                    }
                }
                return dead;
            }

            @Override
            public int size() {
                return records.size();
            }
        };
    }

    @Test
    void commitsAfterStoringAndDeadLettersTheBadRecords() {
        start((records, offsets) -> stored(records, () -> CompletableFuture.completedFuture(null)));
        produce(0, "good");
        produce(1, "bad");
        produce(2, "good");
        await().atMost(Duration.ofSeconds(10)).until(() -> committed() == 3);
        assertThat(producer.history()).singleElement().satisfies(r -> {
            assertThat(r.topic()).isEqualTo("in.dlq");
            assertThat(new String(
                            r.headers()
                                    .lastHeader(DurableConsumerLoop.REASON_HEADER)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo("not an event");
        });
    }

    @Test
    void aPushedBackPollIsRetriedNotSkipped() {
        AtomicInteger attempts = new AtomicInteger();
        start((records, offsets) -> stored(
                records,
                () -> attempts.incrementAndGet() < 3
                        ? CompletableFuture.failedFuture(new RetryLaterException("store unavailable"))
                        : CompletableFuture.completedFuture(null)));
        produce(0, "good");
        await().atMost(Duration.ofSeconds(10)).until(() -> committed() == 1);
        assertThat(attempts).hasValue(3);
        assertThat(loop.running()).isTrue();
    }

    @Test
    void aPollPushedBackBehindOthersInFlightIsTakenBeforeAnyLaterPoll() throws Exception {
        // The first poll is still being stored when the second is pushed back (its room held by the first): the third
        // must not be taken before the second, or a subject's events would be applied out of order and the third's
        // stored offsets would pass records never stored.
        CompletableFuture<Void> firstStored = new CompletableFuture<>();
        List<Long> taken = new CopyOnWriteArrayList<>();
        AtomicInteger attemptsOfSecond = new AtomicInteger();
        start(
                (records, offsets) -> stored(records, () -> {
                    long offset = records.get(0).offset();
                    if (offset == 1 && attemptsOfSecond.incrementAndGet() == 1) {
                        return CompletableFuture.failedFuture(new RetryLaterException("buffer full"));
                    }
                    taken.add(offset);
                    return offset == 0 ? firstStored : CompletableFuture.completedFuture(null);
                }),
                8);
        produce(0, "good");
        produce(1, "good");
        produce(2, "good");
        await().atMost(Duration.ofSeconds(10)).until(() -> attemptsOfSecond.get() == 1);
        Thread.sleep(200);
        assertThat(taken).containsExactly(0L);
        firstStored.complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> committed() == 3);
        assertThat(taken).containsExactly(0L, 1L, 2L);
    }

    @Test
    void aFailingDeadLetterTopicMakesTheLoopReadThePollAgainInsteadOfEnding() {
        MockProducer<byte[], byte[]> failing =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        loop = new DurableConsumerLoop(
                new DurableConsumerLoop.Settings("test", "g", List.of("in"), "in.dlq", 2, Duration.ofMillis(20)),
                () -> consumer,
                () -> failing,
                (records, offsets) -> stored(records, () -> CompletableFuture.completedFuture(null)),
                partitions -> Map.of(),
                () -> {},
                () -> false);
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(TP));
            consumer.updateBeginningOffsets(Map.of(TP, 0L));
        });
        loop.start();
        produce(0, "bad");
        // The first send fails (the topic is down); the loop must not die, and must read the record again.
        await().atMost(Duration.ofSeconds(10)).until(() -> !failing.history().isEmpty());
        failing.errorNext(new org.apache.kafka.common.errors.TimeoutException("dlq down"));
        produce(0, "bad"); // still on the broker: the mock hands a record out once, a real broker again after a seek
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() >= 2);
        assertThat(committed())
                .as("nothing committed while the dead letter was not sent")
                .isLessThan(1);
        // The topic is back: the record is read again, dead-lettered and committed.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            failing.completeNext();
            return committed() == 1;
        });
        assertThat(loop.running()).isTrue();
        assertThat(handled)
                .as("the same record handled again after the failure")
                .containsOnly(0L);
    }

    @Test
    void givenPartitionsItResumesAtTheStoredOffsetsNotKafkasCommittedOnes() {
        // Another replica stored offsets 0..4 with their events but died before committing them to Kafka.
        stored.put(TP, 5L);
        List<ConsumedOffsets> submitted = new CopyOnWriteArrayList<>();
        start((records, offsets) -> {
            submitted.add(offsets);
            return stored(records, () -> CompletableFuture.completedFuture(null));
        });
        for (long o = 0; o < 7; o++) {
            produce(o, "good");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> committed() == 7);
        assertThat(handled).as("only what no replica stored yet is read").containsExactly(5L, 6L);
        assertThat(submitted).last().satisfies(o -> {
            assertThat(o.consumer()).isEqualTo("g");
            assertThat(o.positions()).containsExactly(new ConsumedOffsets.Position("in", 0, 7));
        });
    }

    @Test
    void aConsumerThatFailsForGoodIsReplacedByANewOne() {
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        MockConsumer<byte[], byte[]> second = new MockConsumer<>("earliest");
        loop = new DurableConsumerLoop(
                new DurableConsumerLoop.Settings("test", "g", List.of("in"), "in.dlq", 2, Duration.ofMillis(200)),
                () -> made.incrementAndGet() == 1 ? consumer : second,
                () -> producer,
                (records, offsets) -> stored(records, () -> CompletableFuture.completedFuture(null)),
                partitions -> Map.of(),
                () -> {},
                () -> false);
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(TP));
            consumer.updateBeginningOffsets(Map.of(TP, 0L));
        });
        // The first consumer breaks as a client does that cannot go on (here: closed under it).
        consumer.schedulePollTask(consumer::close);
        second.schedulePollTask(() -> {
            second.rebalance(List.of(TP));
            second.updateBeginningOffsets(Map.of(TP, 0L));
            second.addRecord(new ConsumerRecord<>("in", 0, 0L, null, "good".getBytes(StandardCharsets.UTF_8)));
        });
        loop.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> loop.restarts() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            OffsetAndMetadata o = second.committed(java.util.Set.of(TP)).get(TP);
            return o != null && o.offset() == 1;
        });
        assertThat(made).hasValue(2);
        assertThat(loop.up()).isTrue();
        assertThat(loop.running()).isTrue();
    }
}
