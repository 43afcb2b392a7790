package io.lifeline.ingest.kafka;

import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
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
 * {@link PollHandler} (decode or translate, then submit to the gateway) together with the offsets it reaches, which
 * the store writes in the same transaction as the poll's events; keep up to {@code maxInFlight} polls in flight; once
 * a poll is stored and its dead letters sent, commit its offsets to Kafka as well (for the group's tools; the stored
 * offsets are the ones that count). A replica given partitions seeks to the stored offsets, so it resumes exactly
 * after the last batch any replica stored, and the log's durable dedupe makes any overlap harmless.
 *
 * <p>Supervised: nothing ends the loop but {@link #stop()}. A poll the gateway pushes back
 * ({@link RetryLaterException}) is submitted again after a pause and never skipped; any other failure inside the loop
 * makes it read again from the oldest poll not stored; a failure of the clients themselves (or anything that escapes)
 * closes them and starts afresh with new ones, with back-off. {@link #up()} says whether it is polling. Rebalance
 * callbacks never poll: they wait a bounded time for the polls in flight and leave the rest to the next owner.
 */
public final class DurableConsumerLoop {

    /** The dead-letter header with the reason a record was not taken. */
    public static final String REASON_HEADER = "lifeline.dlq.reason";

    private static final Logger LOG = Logger.getLogger(DurableConsumerLoop.class);
    private static final Duration REVOKE_WAIT = Duration.ofSeconds(10);
    private static final Duration STALL = Duration.ofSeconds(30);
    private static final Duration MAX_RESTART_BACKOFF = Duration.ofSeconds(30);
    /** Failures in a row after which the clients themselves are suspected and made afresh. */
    private static final int MAX_FAILURES_IN_A_ROW = 5;

    /** Turns one poll into work. */
    public interface PollHandler {
        /**
         * Starts the work for one poll's records, in order; must not wait for the store. {@code offsets} are where
         * the poll leaves its partitions: submit them with the poll's events.
         */
        PollWork start(List<ConsumerRecord<byte[], byte[]>> records, ConsumedOffsets offsets);
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

    /** Where a replica given partitions starts: the stored offsets (partitions without one start from Kafka's). */
    public interface StoredOffsets {
        Map<TopicPartition, Long> load(Collection<TopicPartition> partitions) throws Exception;
    }

    /** A record to send to the dead-letter topic, and why. */
    public record DeadLetter(ConsumerRecord<byte[], byte[]> record, String reason) {}

    /** Where one loop reads, as which group, where it dead-letters, how it paces itself. */
    public record Settings(
            String name,
            String group,
            Collection<String> topics,
            String dlqTopic,
            int maxInFlight,
            Duration retryBackoff) {}

    private record InFlight(
            PollWork work, Map<TopicPartition, Long> first, Map<TopicPartition, OffsetAndMetadata> next) {}

    private final Settings settings;
    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final PollHandler handler;
    private final StoredOffsets storedOffsets;
    private final Runnable onDeadLetter;
    private final BooleanSupplier keepRetryingWhenStopping;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private volatile boolean running;
    private volatile long lastPollNanos;
    private volatile boolean clientsOpen;
    private volatile long restarts;
    private volatile Consumer<byte[], byte[]> consumer;
    private Producer<byte[], byte[]> producer;
    private Thread thread;

    /**
     * @param consumers                makes the consumer (again after a failure of the clients)
     * @param producers                makes the dead-letter producer (likewise)
     * @param storedOffsets            the offsets stored with the events, read when partitions are assigned
     * @param onDeadLetter             told of every record sent to the dead-letter topic (counters)
     * @param keepRetryingWhenStopping whether a pushed-back poll is still retried while stopping (the gateway is open)
     */
    public DurableConsumerLoop(
            Settings settings,
            Supplier<Consumer<byte[], byte[]>> consumers,
            Supplier<Producer<byte[], byte[]>> producers,
            PollHandler handler,
            StoredOffsets storedOffsets,
            Runnable onDeadLetter,
            BooleanSupplier keepRetryingWhenStopping) {
        this.settings = settings;
        this.consumers = consumers;
        this.producers = producers;
        this.handler = handler;
        this.storedOffsets = storedOffsets;
        this.onDeadLetter = onDeadLetter;
        this.keepRetryingWhenStopping = keepRetryingWhenStopping;
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = Threads.start("lifeline-kafka-" + settings.name(), this::supervise);
    }

    public boolean running() {
        return running;
    }

    /** Whether the loop is polling: its clients are open and it polled within the last 30 s. */
    public boolean up() {
        return running && clientsOpen && System.nanoTime() - lastPollNanos < STALL.toNanos();
    }

    /** How many times the clients were made afresh after a failure. */
    public long restarts() {
        return restarts;
    }

    /** Stops polling, drains and commits what is in flight, closes the clients (waits up to 10 s). */
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        Consumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // only the consumer loop's thread writes it
    private void supervise() {
        Backoff restart = Backoff.fromSettings(settings.retryBackoff(), MAX_RESTART_BACKOFF);
        int failures = 0;
        while (running) {
            try {
                runOnce();
                failures = 0;
            } catch (Throwable t) {
                clientsOpen = false;
                if (!running) {
                    return;
                }
                restarts++;
                long backoff = restart.delayMillis(++failures);
                LOG.errorf(t, "%s: the Kafka consumer failed; starting it afresh in %d ms", settings.name(), backoff);
                inFlight.clear();
                sleep(backoff);
            }
        }
    }

    private void runOnce() {
        consumer = consumers.get();
        producer = producers.get();
        clientsOpen = true;
        lastPollNanos = System.nanoTime();
        try {
            consumer.subscribe(settings.topics(), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    settle();
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    // Already someone else's: whatever is in flight is stored or read again by the new owner.
                    inFlight.clear();
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    seekToStored(partitions);
                }
            });
            int failures = 0;
            while (running) {
                try {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                    lastPollNanos = System.nanoTime();
                    if (!records.isEmpty()) {
                        InFlight work = begin(records);
                        inFlight.add(work);
                        takeInTurn(work);
                    }
                    commitCompleted(inFlight.size() >= settings.maxInFlight());
                    failures = 0;
                } catch (WakeupException e) {
                    break;
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    if (isFatal(e) || ++failures >= MAX_FAILURES_IN_A_ROW) {
                        throw e;
                    }
                    LOG.errorf(
                            e, "%s: %d poll(s) in flight failed; reading them again", settings.name(), inFlight.size());
                    rewind();
                    pause(settings.retryBackoff());
                }
            }
            try {
                drainAndCommit();
            } catch (RuntimeException e) {
                LOG.warnf(
                        "%s: stopped with polls not committed (they will be read again): %s",
                        settings.name(), e.toString());
            }
        } catch (WakeupException e) {
            LOG.debugf("%s: woken up to stop", settings.name());
        } finally {
            clientsOpen = false;
            closeQuietly();
        }
    }

    /** Failures the clients do not recover from by themselves: make new ones. */
    private static boolean isFatal(RuntimeException e) {
        return e instanceof IllegalStateException
                        && e.getMessage() != null
                        && e.getMessage().contains("closed")
                || e instanceof org.apache.kafka.common.errors.InterruptException
                || e instanceof org.apache.kafka.common.errors.AuthenticationException
                || e instanceof org.apache.kafka.common.errors.AuthorizationException
                || e instanceof org.apache.kafka.common.errors.FencedInstanceIdException;
    }

    private void closeQuietly() {
        try {
            consumer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debugf("%s: consumer close: %s", settings.name(), e.toString());
        }
        try {
            producer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debugf("%s: producer close: %s", settings.name(), e.toString());
        }
    }

    private void seekToStored(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        try {
            Map<TopicPartition, Long> stored = storedOffsets.load(partitions);
            stored.forEach((tp, offset) -> {
                if (partitions.contains(tp)) {
                    consumer.seek(tp, offset);
                }
            });
            LOG.debugf("%s: assigned %s, resuming at the stored offsets %s", settings.name(), partitions, stored);
        } catch (Exception e) {
            // Kafka's committed offsets trail the stored ones at most by the polls in flight: reading them again is
            // harmless (the log's dedupe), so start from there rather than not at all.
            LOG.warnf(
                    "%s: stored offsets unavailable (%s); resuming at the group's committed offsets",
                    settings.name(), e.toString());
        }
    }

    private InFlight begin(ConsumerRecords<byte[], byte[]> records) {
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(records.count());
        Map<TopicPartition, Long> first = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        // By partition, each in offset order (how a poll holds them): the bounds are read once per partition.
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> of = records.records(tp);
            if (of.isEmpty()) {
                continue;
            }
            first.put(tp, of.get(0).offset());
            next.put(tp, new OffsetAndMetadata(of.get(of.size() - 1).offset() + 1));
            list.addAll(of);
        }
        List<ConsumedOffsets.Position> positions = new ArrayList<>(next.size());
        next.forEach((tp, o) -> positions.add(new ConsumedOffsets.Position(tp.topic(), tp.partition(), o.offset())));
        return new InFlight(handler.start(list, new ConsumedOffsets(settings.group(), positions)), first, next);
    }

    /**
     * Makes sure a poll the gateway pushed back is taken before the loop polls again: no later poll may be stored
     * before it (each subject's events keep their order, and no stored offsets may pass its records). While polls are
     * in flight ahead of it, they are what holds the room: it waits for the oldest and tries again at once; once it is
     * the oldest, the gateway itself is full, and it pauses between tries.
     */
    @SuppressWarnings("ReferenceEquality") // the same in-flight entry, not an equal one
    private void takeInTurn(InFlight work) {
        while (running && pushedBack(work.work()) && inFlight.contains(work)) {
            if (inFlight.peek() != work) {
                commitOldest();
                if (inFlight.contains(work)) {
                    work.work().retry();
                }
            } else {
                LOG.debugf(
                        "%s: the gateway pushed back a poll of %d events; retrying",
                        settings.name(), work.work().size());
                pause(settings.retryBackoff());
                work.work().retry();
            }
        }
    }

    private static boolean pushedBack(PollWork work) {
        CompletableFuture<?> f = work.stored();
        if (!f.isCompletedExceptionally()) {
            return false;
        }
        try {
            f.join();
            return false;
        } catch (CompletionException e) {
            return e.getCause() instanceof RetryLaterException;
        } catch (java.util.concurrent.CancellationException e) {
            return false;
        }
    }

    /** Waits for the oldest poll in flight to be stored, and commits it. */
    @SuppressWarnings("ReferenceEquality") // the same in-flight entry, not an equal one
    private void commitOldest() {
        InFlight head = inFlight.peek();
        awaitDurable(head.work());
        if (inFlight.peek() == head) {
            inFlight.poll();
            commitToKafka(head.next());
        }
    }

    /** Commits the offsets of the completed polls at the head of the queue; with {@code block}, waits for one. */
    @SuppressWarnings("ReferenceEquality") // the same in-flight entry, not an equal one
    private void commitCompleted(boolean block) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        while (!inFlight.isEmpty()) {
            InFlight head = inFlight.peek();
            if (!head.work().stored().isDone() && !block) {
                break;
            }
            awaitDurable(head.work());
            if (inFlight.peek() != head) {
                // A rebalance during a pushback's pause settled the queue: what it could commit, it did.
                break;
            }
            commit.putAll(head.next());
            inFlight.poll();
            block = false;
        }
        commitToKafka(commit);
    }

    private void commitToKafka(Map<TopicPartition, OffsetAndMetadata> commit) {
        if (commit.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(commit);
        } catch (org.apache.kafka.clients.consumer.CommitFailedException
                | org.apache.kafka.common.errors.RebalanceInProgressException e) {
            // The group moved on (a long outage outlived max.poll.interval.ms): the offsets are stored with the
            // events already, which is what the next owner resumes from.
            LOG.warnf(
                    "%s: Kafka refused the offset commit (%s); the stored offsets stand",
                    settings.name(), e.getMessage());
        }
    }

    private void drainAndCommit() {
        while (!inFlight.isEmpty()) {
            commitCompleted(true);
        }
    }

    /**
     * In a rebalance callback, where polling is not allowed: waits a bounded time for each poll in flight, without
     * retrying pushbacks, sends the dead letters of those stored, commits them, and forgets the rest (the next owner
     * reads them again from the stored offsets).
     */
    private void settle() {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        long deadline = System.nanoTime() + REVOKE_WAIT.toNanos();
        try {
            while (!inFlight.isEmpty()) {
                InFlight head = inFlight.peek();
                head.work().stored().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                sendDeadLetters(head.work());
                commit.putAll(head.next());
                inFlight.poll();
            }
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
            LOG.infof(
                    "%s: %d poll(s) in flight left to the partitions' next owner at a rebalance (%s)",
                    settings.name(), inFlight.size(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlight.clear();
            try {
                commitToKafka(commit);
            } catch (RuntimeException e) {
                LOG.debugf("%s: commit at a rebalance failed: %s", settings.name(), e.toString());
            }
        }
    }

    /** Waits until the poll is stored and its dead letters sent; a poll the gateway pushed back is retried. */
    private void awaitDurable(PollWork work) {
        while (true) {
            try {
                work.stored().join();
                sendDeadLetters(work);
                return;
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof RetryLaterException)
                        || !running && !keepRetryingWhenStopping.getAsBoolean()) {
                    throw e;
                }
                LOG.warnf(
                        "%s: the gateway pushed back a poll of %d events (%s); retrying",
                        settings.name(), work.size(), e.getCause().getMessage());
                pause(settings.retryBackoff());
                work.retry();
            }
        }
    }

    private void sendDeadLetters(PollWork work) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (DeadLetter d : work.deadLetters()) {
            sent.add(deadLetter(d));
        }
        try {
            for (Future<RecordMetadata> f : sent) {
                f.get(60, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "dead-letter topic " + settings.dlqTopic() + " unavailable: "
                            + (e.getCause() == null ? e : e.getCause()).toString(),
                    e);
        }
    }

    private Future<RecordMetadata> deadLetter(DeadLetter d) {
        ConsumerRecord<byte[], byte[]> r = d.record();
        onDeadLetter.run();
        LOG.debugf(
                "%s: dead-lettering %s-%d@%d: %s", settings.name(), r.topic(), r.partition(), r.offset(), d.reason());
        ProducerRecord<byte[], byte[]> out =
                new ProducerRecord<>(settings.dlqTopic(), null, r.key(), r.value(), r.headers());
        out.headers().add(REASON_HEADER, d.reason().getBytes(StandardCharsets.UTF_8));
        out.headers().add("lifeline.dlq.topic", r.topic().getBytes(StandardCharsets.UTF_8));
        out.headers()
                .add("lifeline.dlq.partition", String.valueOf(r.partition()).getBytes(StandardCharsets.UTF_8));
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
            // Partitions moved on: their new owner reads from the stored offsets anyway.
            LOG.debugf("%s: could not seek back: %s", settings.name(), e.toString());
        }
    }

    /** Waits without reading, still polling (every partition paused) so the group membership stays alive. */
    private void pause(Duration d) {
        try {
            consumer.pause(consumer.assignment());
            long until = System.nanoTime() + d.toNanos();
            while (running && System.nanoTime() < until) {
                ConsumerRecords<byte[], byte[]> late = consumer.poll(Duration.ofMillis(50));
                lastPollNanos = System.nanoTime();
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

    private void sleep(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (running && System.nanoTime() < until) {
                Thread.sleep(Math.min(100, millis));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
