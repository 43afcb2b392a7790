package io.lifeline.domain.job.incident;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.support.Ring;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One job's incidents: at most one open, the recent closed ones (bounded), and counters that survive the
 * bound (interruptions by cause).
 */
public final class IncidentLog {

    private final String job;
    private final Ring<Incident> closed;
    /** Incidents closed since {@link #drainClosed()} last handed them over, oldest first (bounded like the ring). */
    private final ArrayDeque<Incident> undrained = new ArrayDeque<>();

    private final int maxClosed;
    private final Map<IncidentCause, Integer> interruptionsByCause = new EnumMap<>(IncidentCause.class);
    private Incident open;
    /** The closed incidents' views, until one more closes (a closed incident no longer changes). */
    private List<IncidentView> closedViews;

    private int sequence;
    private int interruptions;
    private long recoveredCount;
    private long recoveredMillis;

    public IncidentLog(String job, int maxClosed) {
        this.job = job;
        this.closed = new Ring<>(maxClosed);
        this.maxClosed = maxClosed;
    }

    /** The log's state as plain values. */
    public SavedIncidents save() {
        List<SavedIncident> held = new ArrayList<>(closed.size());
        for (Incident i : closed) {
            held.add(i.save());
        }
        return new SavedIncidents(
                held,
                undrained.size(),
                interruptionsByCause,
                open == null ? null : open.save(),
                sequence,
                interruptions,
                recoveredCount,
                recoveredMillis);
    }

    /** A log in the state {@link #save()} gave, keeping at most {@code maxClosed} closed incidents. */
    public static IncidentLog restore(String job, SavedIncidents s, int maxClosed) {
        IncidentLog log = new IncidentLog(job, maxClosed);
        List<SavedIncident> closed = s.closed();
        for (int i = 0; i < closed.size(); i++) {
            Incident done = Incident.restore(closed.get(i));
            log.closed.add(done);
            // The ones not yet handed over are the newest closed ones.
            if (i >= closed.size() - s.undrained()) {
                log.undrained.addLast(done);
                if (log.undrained.size() > maxClosed) {
                    log.undrained.pollFirst();
                }
            }
        }
        log.interruptionsByCause.putAll(s.interruptionsByCause());
        log.open = s.open() == null ? null : Incident.restore(s.open());
        log.sequence = s.sequence();
        log.interruptions = s.interruptions();
        log.recoveredCount = s.recoveredCount();
        log.recoveredMillis = s.recoveredMillis();
        return log;
    }

    /** The open incident, or null. */
    public Incident open() {
        return open;
    }

    /** Opens a new incident; the caller makes sure none is open. */
    public Incident openNew(Instant at, IncidentCause cause, String detail, String node) {
        if (open != null) {
            throw new IllegalStateException("incident " + open.id() + " is still open");
        }
        sequence++;
        open = new Incident(job + "#" + sequence, job, at, cause, detail, node);
        return open;
    }

    /** Counts the open incident as an interruption (training stopped). */
    public void countInterruption() {
        interruptions++;
        interruptionsByCause.merge(open.cause(), 1, Integer::sum);
    }

    /** Moves the open incident's count to its final cause when a stronger cause joined after the stop. */
    public void recount(IncidentCause before, IncidentCause after) {
        if (before != after) {
            interruptionsByCause.merge(before, -1, Integer::sum);
            interruptionsByCause.merge(after, 1, Integer::sum);
        }
    }

    /** Closes the open incident. */
    public Incident close(Instant at, IncidentOutcome how, Integer worldSize) {
        Incident done = open;
        done.close(at, how, worldSize);
        if (how == IncidentOutcome.RECOVERED) {
            recoveredCount++;
            recoveredMillis += done.recoveryMillis();
        }
        closed.add(done);
        closedViews = null;
        undrained.addLast(done);
        if (undrained.size() > maxClosed) {
            undrained.pollFirst();
        }
        open = null;
        return done;
    }

    /** Whether incidents closed since the last {@link #drainClosed()}. */
    public boolean hasUndrained() {
        return !undrained.isEmpty();
    }

    /**
     * The incidents closed since the previous call, oldest first; a closed incident no longer changes. If nobody
     * calls it, only the last {@code maxClosed} are kept, like the ring.
     */
    public List<Incident> drainClosed() {
        List<Incident> out = new ArrayList<>(undrained);
        undrained.clear();
        return out;
    }

    /** The closed incidents kept, oldest first (a closed incident no longer changes). */
    public List<Incident> closed() {
        return closed.toList();
    }

    /** How many incidents were opened, which is the ordinal of the newest. */
    public int created() {
        return sequence;
    }

    /** The ordinal of an incident, from its id ({@code job#n}). */
    public static long ordinal(String id) {
        return Long.parseLong(id.substring(id.lastIndexOf('#') + 1));
    }

    /** Interruptions (incidents that stopped training) since the job was first seen. */
    public int interruptions() {
        return interruptions;
    }

    /** Interruptions by failure (not by notice or plan; see {@link IncidentCause#planned()}). */
    public int failures() {
        int n = 0;
        for (Map.Entry<IncidentCause, Integer> e : interruptionsByCause.entrySet()) {
            if (!e.getKey().planned()) {
                n += e.getValue();
            }
        }
        return n;
    }

    public Map<IncidentCause, Integer> interruptionsByCause() {
        Map<IncidentCause, Integer> copy = new EnumMap<>(IncidentCause.class);
        interruptionsByCause.forEach((k, v) -> {
            if (v > 0) {
                copy.put(k, v);
            }
        });
        return copy;
    }

    /** Mean recovery time of the incidents that recovered, or null when none did. */
    public Long meanRecoveryMillis() {
        return recoveredCount == 0 ? null : recoveredMillis / recoveredCount;
    }

    /** All retained incidents, oldest first, the open one last. */
    public List<IncidentView> views(long pendingMs, Bucket activity, int gpus) {
        List<IncidentView> done = closedViews;
        if (done == null) {
            List<IncidentView> views = new ArrayList<>(closed.size());
            for (Incident i : closed) {
                views.add(i.view(0, null, 0));
            }
            done = List.copyOf(views);
            closedViews = done;
        }
        if (open == null) {
            return done;
        }
        List<IncidentView> out = new ArrayList<>(done.size() + 1);
        out.addAll(done);
        out.add(open.view(pendingMs, activity, gpus));
        return out;
    }
}
