package io.lifeline.ingest.kafka;

import io.lifeline.store.RetryLaterException;
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
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

/**
 * The one durable Kafka consumer loop, for events and for provider-format notices alike: poll; hand each poll to a
 * {@link PollHandler} (decode or translate, then submit to the gateway); keep up to {@code maxInFlight} polls in
 * flight; commit a poll's offsets only once its events are durably stored and its dead letters sent, in poll order.
 * Delivery is at least once; the gateway's dedupe makes a redelivery harmless.
 *
 * <p>Nothing ends the loop but {@link #stop()}: a poll the gateway pushes back ({@link RetryLaterException}) is
 * submitted again after a pause and never skipped; any other failure (a dead-letter topic that cannot be written, a
 * commit the group refused after a long outage, a handler bug) makes it read again from the oldest uncommitted offset
 * after a pause. Before partitions are given up in a rebalance, the polls in flight are drained and committed.
 * One thread; the consumer and the producer are owned by the loop.
 */
public final class DurableConsumerLoop {

    /** The dead-letter header with the reason a record was not taken. */
    public static final String REASON_HEADER = "lifeline.dlq.reason";
    private static final Logger LOG = Logger.getLogger(DurableConsumerLoop.class);

    /** Turns one poll into work. */
    public interface PollHandler {
        /** Starts the work for one poll's records, in order; must not wait for the store. */
        PollWork start(List<ConsumerRecord<byte[], byte[]>> records);
    }

    /** The work of one poll. */
    public interface PollWork {
        /** Completes once everything of the poll that is to be stored is stored; may fail with a pushback. */
        CompletableFuture<?> stored();

        /** Submits the poll again after a pushback; {@link #stored()} then answers for the new submission. */
        void retry();

        /** Records not taken, with the reason; asked once {@link #stored()} has completed. */
        List<DeadLetter> deadLetters();

        /** Events submitted, for logs. */
        int size();
    }

    /** A record to send to the dead-letter topic, and why. */
    public record DeadLetter(ConsumerRecord<byte[], byte[]> record, String reason) {
    }

    /** Where one loop reads, where it dead-letters, how it paces itself. */
    public record Settings(String name, Collection<String> topics, String dlqTopic, int maxInFlight,
                           Duration retryBackoff) {
    }

    private record InFlight(PollWork work, Map<TopicPartition, Long> first, Map<TopicPartition, OffsetAndMetadata> next) {
    }

    private final Settings settings;
    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final PollHandler handler;
    private final Runnable onDeadLetter;
    private final BooleanSupplier keepRetryingWhenStopping;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private volatile boolean running;
    private Thread thread;

    /**
     * @param onDeadLetter             told of every record sent to the dead-letter topic (counters)
     * @param keepRetryingWhenStopping whether a pushed-back poll is still retried while stopping (the gateway is open)
     */
    public DurableConsumerLoop(Settings settings, Consumer<byte[], byte[]> consumer,
                               Producer<byte[], byte[]> producer, PollHandler handler, Runnable onDeadLetter,
                               BooleanSupplier keepRetryingWhenStopping) {
        this.settings = settings;
        this.consumer = consumer;
        this.producer = producer;
        this.handler = handler;
        this.onDeadLetter = onDeadLetter;
        this.keepRetryingWhenStopping = keepRetryingWhenStopping;
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "lifeline-kafka-" + settings.name());
        thread.setDaemon(true);
        thread.start();
    }

    public boolean running() {
        return running;
    }

    /** Stops polling, drains and commits what is in flight, closes the clients (waits up to 10 s). */
    public void stop() {
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

    private void run() {
        try {
            consumer.subscribe(settings.topics(), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    try {
                        drainAndCommit();
                    } catch (RuntimeException e) {
                        // Not committed: the next owner reads these records again, which dedupe makes harmless.
                        LOG.warnf("%s: polls in flight not committed before a rebalance: %s", settings.name(), e.toString());
                        inFlight.clear();
                    }
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    LOG.debugf("%s: partitions assigned: %s", settings.name(), partitions);
                }
            });
            while (running) {
                try {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                    if (!records.isEmpty()) {
                        inFlight.add(begin(records));
                    }
                    commitCompleted(inFlight.size() >= settings.maxInFlight());
                } catch (WakeupException e) {
                    break;
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    LOG.errorf(e, "%s: %d poll(s) in flight failed; reading them again", settings.name(), inFlight.size());
                    rewind();
                    pause(settings.retryBackoff());
                }
            }
            try {
                drainAndCommit();
            } catch (RuntimeException e) {
                LOG.warnf("%s: stopped with polls not committed (they will be read again): %s", settings.name(),
                        e.toString());
            }
        } catch (WakeupException e) {
            LOG.debugf("%s: woken up to stop", settings.name());
        } finally {
            consumer.close(Duration.ofSeconds(5));
            producer.close(Duration.ofSeconds(5));
        }
    }

    private InFlight begin(ConsumerRecords<byte[], byte[]> records) {
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(records.count());
        Map<TopicPartition, Long> first = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            first.putIfAbsent(tp, r.offset());
            next.put(tp, new OffsetAndMetadata(r.offset() + 1));
            list.add(r);
        }
        return new InFlight(handler.start(list), first, next);
    }

    /** Commits the offsets of the completed polls at the head of the queue; with {@code block}, waits for one. */
    private void commitCompleted(boolean block) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        while (!inFlight.isEmpty()) {
            InFlight head = inFlight.peek();
            if (!head.work().stored().isDone() && !block) {
                break;
            }
            awaitDurable(head.work());
            commit.putAll(head.next());
            inFlight.poll();
            block = false;
        }
        if (!commit.isEmpty()) {
            consumer.commitSync(commit);
        }
    }

    private void drainAndCommit() {
        while (!inFlight.isEmpty()) {
            commitCompleted(true);
        }
    }

    /** Waits until the poll is stored and its dead letters sent; a poll the gateway pushed back is retried. */
    private void awaitDurable(PollWork work) {
        while (true) {
            try {
                work.stored().join();
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (DeadLetter d : work.deadLetters()) {
                    sent.add(deadLetter(d));
                }
                for (Future<RecordMetadata> f : sent) {
                    f.get();
                }
                return;
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof RetryLaterException) || !running && !keepRetryingWhenStopping.getAsBoolean()) {
                    throw e;
                }
                LOG.warnf("%s: the gateway pushed back a poll of %d events (%s); retrying", settings.name(), work.size(),
                        e.getCause().getMessage());
                pause(settings.retryBackoff());
                work.retry();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("dead-letter topic " + settings.dlqTopic() + " unavailable: "
                        + e.getCause().getMessage(), e);
            }
        }
    }

    private Future<RecordMetadata> deadLetter(DeadLetter d) {
        ConsumerRecord<byte[], byte[]> r = d.record();
        onDeadLetter.run();
        LOG.debugf("%s: dead-lettering %s-%d@%d: %s", settings.name(), r.topic(), r.partition(), r.offset(), d.reason());
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(settings.dlqTopic(), null, r.key(), r.value(), r.headers());
        out.headers().add(REASON_HEADER, d.reason().getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.topic", r.topic().getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.partition", String.valueOf(r.partition()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.offset", String.valueOf(r.offset()).getBytes(StandardCharsets.UTF_8));
        return producer.send(out);
    }

    /** Seeks every partition still assigned back to the oldest offset not committed, and forgets the polls in flight. */
    private void rewind() {
        Map<TopicPartition, Long> oldest = new HashMap<>();
        for (InFlight f : inFlight) {
            f.first().forEach((tp, offset) -> oldest.merge(tp, offset, Math::min));
        }
        inFlight.clear();
        try {
            oldest.forEach((tp, offset) -> {
                if (consumer.assignment().contains(tp)) {
                    consumer.seek(tp, offset);
                }
            });
        } catch (RuntimeException e) {
            // Partitions moved on: their new owner reads from the committed offsets anyway.
            LOG.debugf("%s: could not seek back: %s", settings.name(), e.toString());
        }
    }

    private void pause(Duration d) {
        // Keep the group membership alive while waiting: poll with every partition paused.
        try {
            consumer.pause(consumer.assignment());
            long until = System.nanoTime() + d.toNanos();
            while (running && System.nanoTime() < until) {
                ConsumerRecords<byte[], byte[]> late = consumer.poll(Duration.ofMillis(50));
                // Partitions assigned during the pause are not paused: read their records again later, not never.
                for (TopicPartition tp : late.partitions()) {
                    consumer.seek(tp, late.records(tp).get(0).offset());
                }
            }
            consumer.resume(consumer.paused());
        } catch (WakeupException e) {
            running = false;
        } catch (RuntimeException e) {
            LOG.debugf("%s: pause interrupted: %s", settings.name(), e.toString());
        }
    }
}
