package io.lifeline.connector.outbound.command;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.connector.outbound.command.store.AgentCommandStore;
import io.lifeline.domain.event.TrainerData.AckStatus;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.eventlog.ChangeNotifications;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.platform.Threads;
import io.lifeline.security.store.AgentClaims;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * Commands waiting for agents that poll over HTTP instead of reading Kafka, in PostgreSQL ({@link AgentCommandStore},
 * table {@code agent_command}) so that whichever replica an agent's poll or acknowledgement reaches answers it: the
 * command queued by the leader is delivered by any replica, and its acknowledgement, recorded on the row, is known
 * to all of them.
 *
 * <p>A command goes only to the agent holding the job's claim ({@link AgentClaims}): each delivery is to a key, a
 * poll that no longer holds the claim when a command comes gets nothing, and a command delivered to a key that lost
 * the claim is delivered to the next holder at once.
 *
 * <p>Per job: at most {@code queue-size} commands (the acknowledged, then the oldest go first when full), each kept
 * until its deadline passes or {@code retention} runs out; a delivered command not acknowledged within
 * {@code redeliver-after} is delivered again (agents dedupe by id). Delivery is one conditional {@code UPDATE}, so
 * two replicas polling at once never both deliver a command within one redelivery period.
 *
 * <p>A long-poll with nothing to deliver parks a future, not a thread, and costs no query while it waits: queuing a
 * command NOTIFYs {@code lifeline_agent_commands} with its job, and each replica's one listening connection
 * ({@link ChangeNotifications}) wakes the polls it holds for that job. One timer thread answers every expired poll
 * with an empty list and deletes expired rows.
 */
@ApplicationScoped
public class AgentCommandQueue implements CommandChannel {

    private static final Logger LOG = Logger.getLogger(AgentCommandQueue.class);

    @Override
    public String name() {
        return "agent queue";
    }

    /** Always on: agents may poll for any job. */
    @Override
    public boolean accepts(TrainerCommand command) {
        return true;
    }

    /** Queues the command; done once it is committed to PostgreSQL, failed with the reason when not. */
    @Override
    public CompletionStage<Void> send(TrainerCommand command) {
        try {
            offer(command);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Optional<CommandAckView> acknowledgement(String job, String commandId) {
        return store.acknowledgement(job, commandId);
    }

    /**
     * An acknowledgement recorded on its command.
     *
     * @param command   the command acknowledged
     * @param firstAck  whether it was still waiting for one (not acknowledged before, by any replica)
     */
    public record Acknowledged(TrainerCommand command, boolean firstAck) {}

    /** A long-poll waiting for a command, by the agent whose key has digest {@code key}. */
    private static final class Waiter {
        final CompletableFuture<List<TrainerCommand>> future = new CompletableFuture<>();
        final String key;
        ScheduledFuture<?> timeout;

        Waiter(String key) {
            this.key = key;
        }
    }

    /** The polls this replica holds for one job; guarded by its own monitor. */
    private static final class JobWaiters {
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
        /** Removed from the map: whoever holds it must fetch the job's entry again. */
        boolean dead;
    }

    private final AgentCommandStore store;
    private final int capacity;
    private final Duration redeliverAfter;
    private final Duration retention;
    private final int maxWaiters;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    private final Map<String, JobWaiters> polls = new ConcurrentHashMap<>();
    private final ChangeNotifications notifications;
    private final AgentClaims claims;

    @Inject
    AgentCommandQueue(AgentCommandStore store, AgentClaims claims, CommandConfig config, Clock clock) {
        this(
                store,
                claims,
                config.agent().queueSize(),
                config.agent().redeliverAfter(),
                config.agent().retention(),
                config.agent().maxWaitersPerJob(),
                clock);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // sweep() catches and logs the store's failures
    AgentCommandQueue(
            AgentCommandStore store,
            AgentClaims claims,
            int capacity,
            Duration redeliverAfter,
            Duration retention,
            int maxWaiters,
            Clock clock) {
        this.store = store;
        this.claims = claims;
        this.capacity = Math.max(1, capacity);
        this.redeliverAfter = redeliverAfter;
        this.retention = retention;
        this.maxWaiters = Math.max(1, maxWaiters);
        this.clock = clock;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-agent-commands"));
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        long sweep = Math.max(1000, Math.min(60_000, retention.toMillis()));
        timer.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
        // Notices missed while the listening connection was down: every job with a waiting poll is looked at again.
        this.notifications = store.listen(this::wake, () -> polls.keySet().forEach(this::wake));
    }

    /**
     * Queues a command for its job's agents (committed before this returns) and wakes the polls waiting for it on
     * every replica. A known id is ignored; a command past its deadline is dropped.
     *
     * @throws StoreUnavailableException when PostgreSQL does not take it
     */
    public void offer(TrainerCommand command) {
        Instant now = clock.instant();
        if (command.deadline() != null && !command.deadline().isAfter(now)) {
            LOG.debugf(
                    "Command %s for %s dropped: its deadline %s has passed",
                    command.id(), command.job(), command.deadline());
            return;
        }
        Instant expires = command.deadline() != null ? command.deadline() : now.plus(retention);
        for (String dropped : store.queue(command, now, expires, capacity)) {
            LOG.warnf("Agent command queue of %s full (%d): dropped %s", command.job(), capacity, dropped);
        }
    }

    /**
     * The job's commands to deliver now to the agent whose key has digest {@code key} (the caller checked that it
     * holds the job's claim); when there are none, waits up to {@code wait} for one (an empty list after that, or as
     * soon as a command comes while another key holds the claim). Never blocks the calling thread beyond one query.
     *
     * @throws StoreUnavailableException when PostgreSQL cannot be asked
     */
    public CompletionStage<List<TrainerCommand>> poll(String job, String key, Duration wait) {
        Waiter evicted = null;
        Waiter w;
        while (true) {
            JobWaiters q = polls.computeIfAbsent(job, k -> new JobWaiters());
            synchronized (q) {
                if (q.dead) {
                    continue;
                }
                // Under the job's monitor, so a notice handled meanwhile either finds this poll waiting or finds
                // nothing this query has not delivered.
                List<TrainerCommand> ready = deliver(job, key);
                if (!ready.isEmpty() || wait.isZero() || wait.isNegative()) {
                    return CompletableFuture.completedFuture(ready);
                }
                if (q.waiters.size() >= maxWaiters) {
                    evicted = q.waiters.removeFirst();
                }
                w = new Waiter(key);
                q.waiters.addLast(w);
                Waiter mine = w;
                w.timeout = timer.schedule(() -> expire(q, mine), wait.toMillis(), TimeUnit.MILLISECONDS);
                break;
            }
        }
        if (evicted != null) {
            evicted.timeout.cancel(false);
            evicted.future.complete(List.of());
        }
        return w.future;
    }

    /**
     * Records an acknowledgement on its command, whichever replica queued or delivered it; the command leaves the
     * deliveries. Empty when the command is not (or no longer) known.
     */
    public Optional<Acknowledged> ack(String job, String commandId, AckStatus status, String detail) {
        return store.acknowledge(job, commandId, clock.instant(), status, detail)
                .map(a -> new Acknowledged(a.command(), a.firstAck()));
    }

    /** Commands of a job still waiting for an acknowledgement (delivered or not). */
    public int pending(String job) {
        return store.pending(job, clock.instant());
    }

    /**
     * Marks and returns the commands due for delivery to {@code key}: never delivered, delivered to another key, or
     * delivered too long ago unacknowledged.
     */
    private List<TrainerCommand> deliver(String job, String key) {
        Instant now = clock.instant();
        return store.deliver(job, key, now, now.minus(redeliverAfter));
    }

    /**
     * A notice for {@code job}: its waiting polls on this replica by the claim's holder get what is deliverable now;
     * polls by a key that lost the claim meanwhile are answered with nothing (their next poll is refused).
     */
    private void wake(String job) {
        JobWaiters q = polls.get(job);
        if (q == null) {
            return;
        }
        List<Waiter> answered = new ArrayList<>();
        List<Waiter> emptied = new ArrayList<>();
        List<TrainerCommand> ready = List.of();
        synchronized (q) {
            if (q.waiters.isEmpty()) {
                return;
            }
            try {
                String holder = claims.holders(List.of(job)).get(job);
                for (Waiter w : q.waiters) {
                    (w.key.equals(holder) ? answered : emptied).add(w);
                }
                if (!answered.isEmpty()) {
                    ready = deliver(job, holder);
                }
            } catch (StoreUnavailableException e) {
                LOG.warnf("Waiting polls of %s not answered: %s", job, e.getMessage());
                return;
            }
            if (ready.isEmpty()) {
                answered.clear(); // another replica's poll delivered it
            }
            q.waiters.removeAll(answered);
            q.waiters.removeAll(emptied);
        }
        // Completed outside the lock: completion runs the HTTP response on the completing thread's terms.
        for (Waiter w : answered) {
            w.timeout.cancel(false);
            w.future.complete(ready);
        }
        for (Waiter w : emptied) {
            w.timeout.cancel(false);
            w.future.complete(List.of());
        }
    }

    /**
     * The poll {@code poll} (a future {@link #poll} returned for {@code job}) will not be answered: its connection
     * closed. If it still waits, it stops waiting (a command that comes is kept for the next poll) and
     * {@code afterwards} runs on this queue's timer thread, off the caller's (an event loop's).
     */
    public void abandon(String job, CompletionStage<List<TrainerCommand>> poll, Runnable afterwards) {
        JobWaiters q = polls.get(job);
        if (q == null) {
            return;
        }
        Waiter gone = null;
        synchronized (q) {
            for (Iterator<Waiter> it = q.waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (w.future == poll) {
                    it.remove();
                    gone = w;
                    break;
                }
            }
        }
        if (gone != null) {
            gone.timeout.cancel(false);
            gone.future.complete(List.of());
            timer.execute(() -> {
                try {
                    afterwards.run();
                } catch (RuntimeException e) {
                    LOG.warnf("After a closed poll of %s: %s", job, e.toString());
                }
            });
        }
    }

    private void expire(JobWaiters q, Waiter w) {
        boolean mine;
        synchronized (q) {
            mine = q.waiters.remove(w);
        }
        if (mine) {
            w.future.complete(List.of());
        }
    }

    /**
     * Deletes expired rows and claims lapsed longer than the retention (any replica may), and forgets jobs nobody
     * waits on here.
     */
    void sweep() {
        try {
            store.deleteExpired(clock.instant());
            claims.deleteLapsed(clock.instant().minus(retention));
        } catch (RuntimeException e) {
            LOG.warnf("Expired agent commands not deleted (next sweep tries again): %s", e.getMessage());
        }
        for (String job : polls.keySet()) {
            polls.computeIfPresent(job, (k, q) -> {
                synchronized (q) {
                    if (q.waiters.isEmpty()) {
                        q.dead = true;
                        return null;
                    }
                    return q;
                }
            });
        }
    }

    /** Jobs with a waiting poll on this replica (tests). */
    int jobs() {
        return polls.size();
    }

    /** Whether the connection that hears other replicas' commands is up (tests). */
    boolean listening() {
        return notifications.connected();
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        notifications.close();
        for (JobWaiters q : polls.values()) {
            synchronized (q) {
                q.waiters.forEach(w -> w.future.complete(List.of()));
                q.waiters.clear();
            }
        }
    }
}
