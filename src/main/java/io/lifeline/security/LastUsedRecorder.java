package io.lifeline.security;

import io.lifeline.security.store.SecurityStore;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Remembers when each token was last used and writes those times in one batch every interval, so a request never
 * costs a database write and each token is written at most once per interval. Memory is one entry per token used
 * since the last flush.
 */
@ApplicationScoped
public class LastUsedRecorder {

    private static final Logger LOG = Logger.getLogger(LastUsedRecorder.class);

    private final Map<String, Instant> pending = new ConcurrentHashMap<>();
    private final SecurityStore store;

    LastUsedRecorder(SecurityStore store) {
        this.store = store;
    }

    /** Notes a use of token {@code id} at {@code at}. */
    public void touch(String id, Instant at) {
        pending.merge(id, at, (a, b) -> a.isAfter(b) ? a : b);
    }

    /** The newest use not yet written, or {@code null}. */
    public Instant pending(String id) {
        return pending.get(id);
    }

    @Scheduled(
            every = "${lifeline.security.last-used-flush-interval:60s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledFlush() {
        flush();
    }

    /** Writes what is pending; on failure keeps it for the next try. Returns how many tokens were written. */
    public int flush() {
        if (pending.isEmpty()) {
            return 0;
        }
        Map<String, Instant> batch = new HashMap<>(pending);
        try {
            store.touch(batch);
            // Drop only what was written: a use noted meanwhile stays for the next flush.
            batch.forEach(pending::remove);
            return batch.size();
        } catch (RuntimeException e) {
            LOG.warnf("Could not record token last-use times, will retry: %s", e.getMessage());
            return 0;
        }
    }
}
