package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.ActionsConfig;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The replica's one leader election, shared by everything that must run on one replica only: the action executor,
 * the policies and alert evaluation and delivery. Started by the first component that needs it; stopping it (as the
 * executor does when it stops as a crash would) gives the lock up until it is started again.
 */
@ApplicationScoped
public class Leadership {

    private final AgroalDataSource dataSource;
    private final ActionsConfig config;
    /** Unique per process: the pod name alone would be reused by a restarted pod that must not inherit the lease. */
    private final String identity = ManagementFactory.getRuntimeMXBean().getName() + "/"
            + java.util.UUID.randomUUID().toString().substring(0, 8);

    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
    private LeaderElection election;
    private boolean stopped;

    Leadership(AgroalDataSource dataSource, ActionsConfig config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    /** Competes for leadership from now on (idempotent). */
    public synchronized void start() {
        stopped = false;
        if (election == null) {
            election = new LeaderElection(
                    dataSource, identity, config.leaderLease(), leader -> listeners.forEach(l -> l.accept(leader)));
            election.start(config.leaderCheckInterval().toMillis());
        }
    }

    /** Gives leadership up and stops competing until {@link #start()}. */
    public synchronized void stop() {
        stopped = true;
        if (election != null) {
            election.close();
            election = null;
        }
    }

    /** Whether this replica leads now; starts competing on first use unless stopped. */
    public boolean isLeader() {
        LeaderElection e;
        synchronized (this) {
            if (election == null && !stopped) {
                start();
            }
            e = election;
        }
        return e != null && e.isLeader();
    }

    /** The fencing token of the current leadership; 0 when this replica does not lead. */
    public long term() {
        LeaderElection e;
        synchronized (this) {
            e = election;
        }
        return e == null ? 0 : e.term();
    }

    /** Told true when this replica becomes leader and false when it stops (on the election's thread). */
    public void onChange(Consumer<Boolean> listener) {
        listeners.add(listener);
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void close() {
        stop();
    }
}
