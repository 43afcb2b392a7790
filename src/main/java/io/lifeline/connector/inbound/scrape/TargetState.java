package io.lifeline.connector.inbound.scrape;

import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;

/** The scraping state of one endpoint; updated by the one scrape in flight at a time, read by anyone. */
final class TargetState {

    final ScrapeTarget target;
    private Instant lastAttempt;
    private Instant lastSuccess;
    private String lastError;
    private Instant lastErrorAt;
    private int consecutiveFailures;
    private boolean stale;
    private long scrapes;
    private long failures;
    private volatile boolean removed;
    private ScheduledFuture<?> next;

    TargetState(ScrapeTarget target) {
        this.target = target;
    }

    synchronized void attempt(Instant at) {
        lastAttempt = at;
        scrapes++;
    }

    /** Records a usable scrape; returns true when the endpoint was stale until now. */
    synchronized boolean success(Instant at) {
        boolean wasStale = stale;
        lastSuccess = at;
        consecutiveFailures = 0;
        stale = false;
        return wasStale;
    }

    /** Records a failed scrape; returns true when this failure made the endpoint stale. */
    synchronized boolean failure(Instant at, String error, int staleAfter) {
        failures++;
        consecutiveFailures++;
        lastError = error;
        lastErrorAt = at;
        if (!stale && consecutiveFailures >= staleAfter) {
            stale = true;
            return true;
        }
        return false;
    }

    synchronized boolean isStale() {
        return stale;
    }

    synchronized void next(ScheduledFuture<?> f) {
        next = f;
    }

    void remove() {
        removed = true;
        ScheduledFuture<?> f;
        synchronized (this) {
            f = next;
        }
        if (f != null) {
            f.cancel(false);
        }
    }

    boolean removed() {
        return removed;
    }

    synchronized EndpointStatus status() {
        return new EndpointStatus(
                target.url(),
                target.node(),
                target.origin().name().toLowerCase(Locale.ROOT),
                lastAttempt,
                lastSuccess,
                lastError,
                lastErrorAt,
                consecutiveFailures,
                stale,
                scrapes,
                failures);
    }
}
