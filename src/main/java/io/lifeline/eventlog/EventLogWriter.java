package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.Refusal;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Appends lifecycle events to the event log in batches (group commit): whatever arrived while the previous
 * transaction ran goes into the next one, as a single multi-row insert. A submission's future completes,
 * on this writer's thread and in submission order, with which of its events were new to the log.
 *
 * <p>Every replica writes to the one log and follows it ({@link EventLogTail}), so the writers of all replicas take
 * turns: each transaction holds an advisory lock from its insert to its commit, which makes {@code seq} grow in commit
 * order. A transaction also stores the Kafka offsets the events were consumed up to ({@link ConsumedOffsets}). A
 * replica frozen while it holds the lock (a long GC pause, SIGSTOP, its network to the database cut) would stop every
 * other replica's writes with it, so the database ends a transaction that stays idle longer than
 * {@link #HOLD_TIMEOUT}: the lock is freed, and the frozen writer's batch fails and is written again once it wakes
 * (duplicates of it are refused by the unique key).
 *
 * <p>While the database is unavailable the writer retries with back-off and keeps what it has; once
 * {@code lifeline.ingest.buffer-events} are waiting, new submissions are refused (back-pressure) instead of
 * growing without bound. A batch the database refuses on its content (SQLSTATE class 22 or 23) is never retried
 * as it is: the writer narrows it down to the events refused, stores the others and names each refused one with
 * the database's reason.
 *
 * <p>Urgent submissions ({@link #appendUrgent}: interruption notices, XIDs, trainer failures) do not queue behind
 * the telemetry: the writer takes them before the next batch, in their own small transaction. They take the
 * commit-order lock like any other write, so their {@code seq} is lower than that of every batch written after them,
 * and every replica's follower sees them in the same order as the replica that wrote them applied them.
 */
@ApplicationScoped
public class EventLogWriter {

    private static final Logger LOG = Logger.getLogger(EventLogWriter.class);
    /**
     * Stores the events whose (source, id) is new to {@code event_ids}, in submission order, so that seq follows the
     * order the model applies them in. The batch holds each (source, id) once ({@link #insert} keeps the first).
     */
    private static final String INSERT = """
            WITH input AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[]::timestamptz[], ?::text[]::jsonb[])
                    WITH ORDINALITY AS t(event_id, source, type, subject, time, data, ord)
            ), fresh AS (
                INSERT INTO event_ids (source, event_id, time) SELECT source, event_id, time FROM input
                ON CONFLICT DO NOTHING
                RETURNING source, event_id
            )
            INSERT INTO event_log (event_id, source, type, subject, time, data)
            SELECT i.event_id, i.source, i.type, i.subject, i.time, i.data
            FROM input i JOIN fresh f ON f.source = i.source AND f.event_id = i.event_id
            ORDER BY i.ord
            RETURNING source, event_id, seq""";
    /** "commit order" as a number: writers of the log take it in turn, so seq grows in commit order. */
    static final long COMMIT_ORDER_KEY = 0x6c6c2d636f6d6d69L;
    /** How long a transaction holding the commit-order lock may wait for its writer between statements. */
    static final String HOLD_TIMEOUT = "5s";
    /** Takes the commit-order lock, and has the database end the transaction should its writer freeze. */
    static final String LOCK =
            "SELECT set_config('idle_in_transaction_session_timeout', ?, true), " + "pg_advisory_xact_lock(?)";
    /** Woken readers of the log ({@link EventLogTail}) look for new rows at once instead of at their next poll. */
    static final String CHANNEL = "lifeline_event_log";
    /** While the database is unavailable: 50 ms doubling to 5 s, where a shutdown gives up. */
    private static final Backoff RETRY = Backoff.exponentialMillis(50, 5_000);
    /** Tells an idle writer that an urgent submission waits; nothing to write by itself. */
    private static final Submission WAKE = new Submission(List.of(), 0, null, new CompletableFuture<>());

    private final AgroalDataSource dataSource;
    private final EventCodec codec;
    private final int capacity;
    private final int maxBatch;
    private final LinkedBlockingQueue<Submission> queue = new LinkedBlockingQueue<>();
    /** Written before the next batch of {@link #queue}, in their order; a {@link #WAKE} in the queue wakes the writer. */
    private final ConcurrentLinkedQueue<Submission> urgent = new ConcurrentLinkedQueue<>();

    private final AtomicInteger buffered = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean healthy = true;
    private volatile String lastError;

    EventLogWriter(AgroalDataSource dataSource, EventCodec codec, IngestConfig config) {
        this.dataSource = dataSource;
        this.codec = codec;
        this.capacity = config.bufferEvents();
        this.maxBatch = config.writeBatchEvents();
        this.thread = Threads.start("lifeline-store-writer", this::run);
        ShutdownOrder.storeStarted();
    }

    /**
     * Queues events for the log. The future completes with, per event, its {@code seq} if it was new (0 for an event
     * already stored with the same source and id, or refused), and which events the database refused.
     *
     * @throws RetryLaterException when the buffer is full (the store has been unavailable for a while)
     */
    public CompletableFuture<Appended> append(List<Event> events) {
        return append(events, 0, null);
    }

    /**
     * Queues events for the log behind everything queued before, together with {@code passengers} events that
     * are not stored but must keep their place in line (telemetry applied in order with the lifecycle events
     * around it). Passengers count against the buffer too, so an outage cannot grow memory without bound. The
     * {@code offsets} (may be null) are stored in the same transaction as the events.
     */
    public CompletableFuture<Appended> append(List<Event> events, int passengers, ConsumedOffsets offsets) {
        if (!running) {
            throw new RetryLaterException("shutting down");
        }
        int n = events.size() + passengers;
        if (buffered.addAndGet(n) > capacity) {
            buffered.addAndGet(-n);
            throw new RetryLaterException("event store unavailable and buffer full (" + capacity
                    + " events); retry later" + (lastError == null ? "" : ": " + lastError));
        }
        Submission s = new Submission(events, n, offsets, new CompletableFuture<>());
        queue.add(s);
        return s.future;
    }

    /**
     * Queues a few urgent events ahead of every batch waiting (the priority lane): they are written in a transaction
     * of their own before the next batch. Same answer as {@link #append(List)}.
     *
     * @throws RetryLaterException when the buffer is full
     */
    public CompletableFuture<Appended> appendUrgent(List<Event> events) {
        if (!running) {
            throw new RetryLaterException("shutting down");
        }
        if (buffered.addAndGet(events.size()) > capacity) {
            buffered.addAndGet(-events.size());
            throw new RetryLaterException("event store unavailable and buffer full (" + capacity
                    + " events); retry later" + (lastError == null ? "" : ": " + lastError));
        }
        Submission s = new Submission(events, events.size(), null, new CompletableFuture<>());
        urgent.add(s);
        queue.add(WAKE);
        return s.future;
    }

    /** Whether the last write succeeded. */
    public boolean healthy() {
        return healthy;
    }

    /** Events waiting to be written. */
    public int buffered() {
        return buffered.get();
    }

    public int capacity() {
        return capacity;
    }

    public String lastError() {
        return lastError;
    }

    @SuppressWarnings("ReferenceEquality") // WAKE is a sentinel
    private void run() {
        List<Submission> batch = new ArrayList<>();
        while (running || !queue.isEmpty() || !urgent.isEmpty()) {
            try {
                if (writeUrgent()) {
                    continue;
                }
                Submission first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null || first == WAKE) {
                    continue;
                }
                batch.clear();
                batch.add(first);
                int count = first.events.size();
                Submission next;
                // An urgent submission that arrives meanwhile ends the batch: it is written next, not after a full one.
                while (urgent.isEmpty() && (next = queue.peek()) != null && count + next.events.size() <= maxBatch) {
                    queue.poll();
                    if (next != WAKE) {
                        batch.add(next);
                        count += next.events.size();
                    }
                }
                if (count == 0 && batch.stream().allMatch(b -> b.offsets == null)) {
                    // Only passengers: nothing to write, keep their order.
                    complete(batch, Map.of());
                } else {
                    writeWithRetry(batch, count);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Writes the urgent submissions waiting, all in one small transaction; false when there were none. */
    private boolean writeUrgent() throws InterruptedException {
        if (urgent.isEmpty()) {
            return false;
        }
        List<Submission> batch = new ArrayList<>();
        int count = 0;
        Submission s;
        while (count < maxBatch && (s = urgent.poll()) != null) {
            batch.add(s);
            count += s.events.size();
        }
        writeWithRetry(batch, count);
        return true;
    }

    private void writeWithRetry(List<Submission> batch, int count) throws InterruptedException {
        int failures = 0;
        while (true) {
            try {
                Map<String, Long> fresh = insert(batch, count);
                healthy = true;
                lastError = null;
                complete(batch, new HashMap<>(fresh));
                return;
            } catch (SQLException e) {
                if (isDataError(e)) {
                    // The database refuses the content, not the connection: retrying the same batch would block
                    // ingest forever. Narrow it down to the events it refuses.
                    isolate(batch, e);
                    return;
                }
                failures = failed(batch, count, failures, e);
                if (failures < 0) {
                    return;
                }
            } catch (RuntimeException e) {
                failures = failed(batch, count, failures, e);
                if (failures < 0) {
                    return;
                }
            }
        }
    }

    private void complete(List<Submission> batch, Map<String, Long> fresh) {
        for (Submission s : batch) {
            buffered.addAndGet(-s.weight);
            s.future.complete(new Appended(freshFlags(s.events, fresh), List.of()));
        }
    }

    /**
     * Records a failed attempt and sleeps; returns the failures in a row so far, or -1 once the batch was given up.
     */
    private int failed(List<Submission> batch, int count, int failures, Exception e) throws InterruptedException {
        healthy = false;
        lastError = e.getMessage();
        long backoff = RETRY.delayMillis(failures + 1);
        LOG.warnf("Event log write of %d events failed, retrying in %d ms: %s", count, backoff, e.getMessage());
        if (!running && backoff >= RETRY.max().toMillis()) {
            // Shutting down with the database gone: the senders were never acknowledged.
            for (Submission s : batch) {
                buffered.addAndGet(-s.weight);
                s.future.completeExceptionally(new RetryLaterException("shutting down: " + lastError));
            }
            return -1;
        }
        Thread.sleep(backoff);
        return failures + 1;
    }

    /** Writes each submission of a refused batch alone, and a refused submission in halves down to its bad events. */
    private void isolate(List<Submission> batch, SQLException refusal) throws InterruptedException {
        if (batch.size() == 1) {
            bisect(batch.get(0), refusal);
            return;
        }
        for (Submission s : batch) {
            if (s.events.isEmpty() && s.offsets == null) {
                complete(List.of(s), Map.of());
            } else {
                writeWithRetry(List.of(s), s.events.size());
            }
        }
    }

    /**
     * Stores what the database takes of a submission it refused as a whole, and completes it naming each event refused.
     * Bounded: k bad events among n cost at most about 2k·log2(n) inserts, each of a part of the submission.
     */
    private void bisect(Submission s, SQLException refusal) throws InterruptedException {
        Map<String, Long> fresh = new HashMap<>();
        List<Refusal> refused = new ArrayList<>();
        int n = s.events.size();
        boolean done;
        if (n == 1) {
            refused.add(new Refusal(0, s.events.get(0).id(), reason(refusal)));
            done = true;
        } else {
            done = writePart(s, 0, n / 2, fresh, refused) && writePart(s, n / 2, n, fresh, refused);
        }
        if (done && s.offsets != null) {
            // The offsets go in a transaction of their own here: reading the parts again would only find duplicates.
            done = writeOffsets(s);
        }
        if (!done) {
            // Given up while shutting down: the submission was failed already.
            return;
        }
        LOG.warnf(
                "Event log refused %d of %d events of a submission; stored the others. First: %s",
                refused.size(), n, refused.isEmpty() ? "none" : refused.get(0).reason());
        long[] flags = freshFlags(s.events, fresh);
        for (Refusal r : refused) {
            flags[r.index()] = 0;
        }
        buffered.addAndGet(-s.weight);
        s.future.complete(new Appended(flags, refused));
    }

    /**
     * Writes events {@code from..to} of {@code s}: a part the database refuses on content is split in two until each
     * refused event is alone, which is then recorded in {@code refused}. Other failures are retried with back-off.
     * False once given up (shutting down with the database gone).
     */
    private boolean writePart(Submission s, int from, int to, Map<String, Long> fresh, List<Refusal> refused)
            throws InterruptedException {
        List<Submission> part = List.of(new Submission(s.events.subList(from, to), 0, null, s.future));
        int failures = 0;
        while (true) {
            try {
                fresh.putAll(insert(part, to - from));
                healthy = true;
                lastError = null;
                return true;
            } catch (SQLException e) {
                if (isDataError(e)) {
                    if (to - from == 1) {
                        refused.add(new Refusal(from, s.events.get(from).id(), reason(e)));
                        return true;
                    }
                    int mid = (from + to) >>> 1;
                    return writePart(s, from, mid, fresh, refused) && writePart(s, mid, to, fresh, refused);
                }
                failures = failed(List.of(s), to - from, failures, e);
            } catch (RuntimeException e) {
                failures = failed(List.of(s), to - from, failures, e);
            }
            if (failures < 0) {
                return false;
            }
        }
    }

    /** Stores a bisected submission's offsets, retrying like any write; false once given up. */
    private boolean writeOffsets(Submission s) throws InterruptedException {
        int failures = 0;
        while (true) {
            try {
                insert(List.of(new Submission(List.of(), 0, s.offsets, s.future)), 0);
                return true;
            } catch (SQLException | RuntimeException e) {
                failures = failed(List.of(s), 0, failures, e);
                if (failures < 0) {
                    return false;
                }
            }
        }
    }

    /** The database's own words (first line, without the severity), with the SQLSTATE. */
    private static String reason(SQLException e) {
        String message = e.getMessage() == null
                ? "no message"
                : e.getMessage().lines().findFirst().orElse("");
        if (message.startsWith("ERROR: ")) {
            message = message.substring("ERROR: ".length());
        }
        return "refused by the event store: " + message + " (SQLSTATE " + e.getSQLState() + ")";
    }

    /** SQLSTATE classes 22 (data exception) and 23 (integrity violation): the content, not the connection. */
    private static boolean isDataError(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    private Map<String, Long> insert(List<Submission> batch, int count) throws SQLException {
        String[] ids = new String[count];
        String[] sources = new String[count];
        String[] types = new String[count];
        String[] subjects = new String[count];
        String[] times = new String[count];
        String[] data = new String[count];
        List<ConsumedOffsets> offsets = new ArrayList<>();
        // The first of a (source, id) given twice in the batch is the one stored; the others are its duplicates.
        Set<String> keys = new HashSet<>(count * 2);
        int i = 0;
        for (Submission s : batch) {
            if (s.offsets != null) {
                offsets.add(s.offsets);
            }
            for (Event e : s.events) {
                if (!keys.add(key(e.source(), e.id()))) {
                    continue;
                }
                ids[i] = e.id();
                sources[i] = e.source();
                types[i] = e.type().wireName();
                subjects[i] = e.subject();
                times[i] = e.time().toString();
                data[i] = codec.toJson(codec.encodeData(e.data()));
                i++;
            }
        }
        Map<String, Long> inserted = new HashMap<>(count * 2);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (count > 0) {
                    try (PreparedStatement lock = c.prepareStatement(LOCK)) {
                        lock.setString(1, HOLD_TIMEOUT);
                        lock.setLong(2, COMMIT_ORDER_KEY);
                        lock.execute();
                    }
                    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                        setArray(c, ps, 1, first(ids, i));
                        setArray(c, ps, 2, first(sources, i));
                        setArray(c, ps, 3, first(types, i));
                        setArray(c, ps, 4, first(subjects, i));
                        setArray(c, ps, 5, first(times, i));
                        setArray(c, ps, 6, first(data, i));
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                inserted.put(key(rs.getString(1), rs.getString(2)), rs.getLong(3));
                            }
                        }
                    }
                    if (!inserted.isEmpty()) {
                        ChangeNotifications.notify(c, CHANNEL, "");
                    }
                }
                OffsetStore.write(c, offsets);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
        return inserted;
    }

    /** The first {@code n} values (the array itself when it holds no more). */
    private static String[] first(String[] values, int n) {
        return n == values.length ? values : Arrays.copyOf(values, n);
    }

    private static void setArray(Connection c, PreparedStatement ps, int index, String[] values) throws SQLException {
        Array a = c.createArrayOf("text", values);
        ps.setArray(index, a);
    }

    /** Per event, its seq if this batch stored it (the first of a repeated source and id only), else 0. */
    private static long[] freshFlags(List<Event> events, Map<String, Long> inserted) {
        long[] fresh = new long[events.size()];
        for (int i = 0; i < fresh.length; i++) {
            Event e = events.get(i);
            Long seq = inserted.remove(key(e.source(), e.id()));
            if (seq != null) {
                fresh[i] = seq;
            }
        }
        return fresh;
    }

    private static String key(String source, String id) {
        return source + '\u0000' + id;
    }

    /** Stops with the other {@link ShutdownOrder#EVENT_LOG} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.EVENT_LOG) ShutdownEvent ev) {
        stop();
    }

    /** Writes what is queued (bounded by the retry back-off) and stops. */
    @PreDestroy
    void stop() {
        running = false;
        try {
            thread.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ShutdownOrder.applicationStopped();
    }

    /** Events to store, how many buffer places it takes (stored plus passengers), the offsets to store, its answer. */
    private record Submission(
            List<Event> events, int weight, ConsumedOffsets offsets, CompletableFuture<Appended> future) {}
}
