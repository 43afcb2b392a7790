package io.lifeline.connector.command;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Commands waiting for agents that poll over HTTP instead of reading Kafka. Per job: at most {@code queue-size}
 * commands (the oldest goes first when full), each kept until an agent acknowledges it, its deadline passes or
 * {@code retention} runs out; a delivered command not acknowledged within {@code redeliver-after} is delivered
 * again (agents dedupe by id). A long-poll with nothing to deliver parks a future, not a thread: one timer thread
 * answers every expired poll with an empty list, and a new command answers every poll waiting on its job.
 */
@ApplicationScoped
public class AgentCommandQueue implements CommandChannel {

    @Override
    public String name() {
        return "agent queue";
    }

    /** Always on: agents may poll for any job. */
    @Override
    public boolean accepts(TrainerCommand command) {
        return true;
    }

    @Override
    public void send(TrainerCommand command) {
        offer(command);
    }


    private static final Logger LOG = Logger.getLogger(AgentCommandQueue.class);

    /** A command waiting for its agent; {@code deliveredAt} is -1 until first delivered. */
    private static final class Entry {
        final TrainerCommand command;
        final long queuedAt;
        long deliveredAt = -1;

        Entry(TrainerCommand command, long queuedAt) {
            this.command = command;
            this.queuedAt = queuedAt;
        }
    }

    /** A long-poll waiting for a command. */
    private static final class Waiter {
        final CompletableFuture<List<TrainerCommand>> future = new CompletableFuture<>();
        ScheduledFuture<?> timeout;
    }

    /** One job's commands and waiting polls; guarded by its own monitor. */
    private static final class JobQueue {
        final ArrayDeque<Entry> entries = new ArrayDeque<>();
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
        /** Removed from the map: whoever holds it must fetch the job's queue again. */
        boolean dead;
    }

    private final int capacity;
    private final long redeliverMillis;
    private final long retentionMillis;
    private final int maxWaiters;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    private final Map<String, JobQueue> queues = new ConcurrentHashMap<>();

    @Inject
    AgentCommandQueue(CommandConfig config, Clock clock) {
        this(config.agent().queueSize(), config.agent().redeliverAfter(), config.agent().retention(),
                config.agent().maxWaitersPerJob(), clock);
    }

    AgentCommandQueue(int capacity, Duration redeliverAfter, Duration retention, int maxWaiters, Clock clock) {
        this.capacity = Math.max(1, capacity);
        this.redeliverMillis = redeliverAfter.toMillis();
        this.retentionMillis = retention.toMillis();
        this.maxWaiters = Math.max(1, maxWaiters);
        this.clock = clock;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "lifeline-agent-commands");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        long sweep = Math.max(1000, Math.min(60_000, retentionMillis));
        timer.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    /** Queues a command for its job's agents and answers the polls waiting for it. A known id is ignored. */
    public void offer(TrainerCommand command) {
        long now = clock.millis();
        if (expired(command, now)) {
            LOG.debugf("Command %s for %s dropped: its deadline %s has passed", command.id(), command.job(), command.deadline());
            return;
        }
        List<Waiter> answered = new ArrayList<>();
        List<TrainerCommand> ready = new ArrayList<>();
        while (true) {
            JobQueue q = queues.computeIfAbsent(command.job(), k -> new JobQueue());
            synchronized (q) {
                if (q.dead) {
                    continue;
                }
                purge(q, now);
                for (Entry e : q.entries) {
                    if (e.command.id().equals(command.id())) {
                        return;
                    }
                }
                if (q.entries.size() >= capacity) {
                    Entry dropped = q.entries.removeFirst();
                    LOG.warnf("Agent command queue of %s full (%d): dropped %s", command.job(), capacity, dropped.command.id());
                }
                q.entries.addLast(new Entry(command, now));
                if (!q.waiters.isEmpty()) {
                    ready.addAll(deliverable(q, now));
                    answered.addAll(q.waiters);
                    q.waiters.clear();
                }
                break;
            }
        }
        // Completed outside the lock: completion runs the HTTP response on the completing thread's terms.
        for (Waiter w : answered) {
            w.timeout.cancel(false);
            w.future.complete(List.copyOf(ready));
        }
    }

    /**
     * The job's commands to deliver now; when there are none, waits up to {@code wait} for one (an empty list
     * after that). Never blocks the calling thread.
     */
    public CompletionStage<List<TrainerCommand>> poll(String job, Duration wait) {
        long now = clock.millis();
        Waiter evicted = null;
        Waiter w;
        while (true) {
            JobQueue q = queues.computeIfAbsent(job, k -> new JobQueue());
            synchronized (q) {
                if (q.dead) {
                    continue;
                }
                purge(q, now);
                List<TrainerCommand> ready = deliverable(q, now);
                if (!ready.isEmpty() || wait.isZero() || wait.isNegative()) {
                    return CompletableFuture.completedFuture(ready);
                }
                if (q.waiters.size() >= maxWaiters) {
                    evicted = q.waiters.removeFirst();
                }
                w = new Waiter();
                q.waiters.addLast(w);
                Waiter mine = w;
                w.timeout = timer.schedule(() -> expire(job, q, mine), wait.toMillis(), TimeUnit.MILLISECONDS);
                break;
            }
        }
        if (evicted != null) {
            evicted.timeout.cancel(false);
            evicted.future.complete(List.of());
        }
        return w.future;
    }

    /** Removes an acknowledged command; the command when it was still queued. */
    public Optional<TrainerCommand> ack(String job, String commandId) {
        JobQueue q = queues.get(job);
        if (q == null) {
            return Optional.empty();
        }
        synchronized (q) {
            for (Iterator<Entry> it = q.entries.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (e.command.id().equals(commandId)) {
                    it.remove();
                    return Optional.of(e.command);
                }
            }
        }
        return Optional.empty();
    }

    /** Commands queued for a job (delivered or not). */
    public int pending(String job) {
        JobQueue q = queues.get(job);
        if (q == null) {
            return 0;
        }
        synchronized (q) {
            purge(q, clock.millis());
            return q.entries.size();
        }
    }

    private void expire(String job, JobQueue q, Waiter w) {
        boolean mine;
        synchronized (q) {
            mine = q.waiters.remove(w);
        }
        if (mine) {
            w.future.complete(List.of());
        }
    }

    /** Marks and returns the commands due for delivery: never delivered, or delivered too long ago unacknowledged. */
    private List<TrainerCommand> deliverable(JobQueue q, long now) {
        List<TrainerCommand> out = new ArrayList<>();
        for (Entry e : q.entries) {
            if (e.deliveredAt < 0 || now - e.deliveredAt >= redeliverMillis) {
                e.deliveredAt = now;
                out.add(e.command);
            }
        }
        return out;
    }

    private void purge(JobQueue q, long now) {
        q.entries.removeIf(e -> expired(e.command, now) || e.command.deadline() == null && now - e.queuedAt >= retentionMillis);
    }

    private static boolean expired(TrainerCommand c, long now) {
        return c.deadline() != null && c.deadline().toEpochMilli() <= now;
    }

    /** Forgets jobs with nothing queued and nobody waiting, so the map holds only live jobs. */
    void sweep() {
        long now = clock.millis();
        for (String job : queues.keySet()) {
            queues.computeIfPresent(job, (k, q) -> {
                synchronized (q) {
                    purge(q, now);
                    if (q.entries.isEmpty() && q.waiters.isEmpty()) {
                        q.dead = true;
                        return null;
                    }
                    return q;
                }
            });
        }
    }

    /** Jobs with a queue (tests). */
    int jobs() {
        return queues.size();
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        for (JobQueue q : queues.values()) {
            synchronized (q) {
                q.waiters.forEach(w -> w.future.complete(List.of()));
                q.waiters.clear();
            }
        }
    }
}
