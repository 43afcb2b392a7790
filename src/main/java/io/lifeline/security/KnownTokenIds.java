package io.lifeline.security;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ids of the tokens the store holds (not revoked), kept in memory so that an address throttled for failed tokens
 * can still sign in with a real one: a made-up id is refused from memory, a real id is verified as usual. The set is
 * loaded on first need and reloaded at most once per {@code minReloadNanos}, one reload at a time, however many
 * requests ask: a flood of made-up ids costs at most one small query per interval. Ids created on this replica are
 * added at once; a token created on another replica is known after the next reload.
 */
final class KnownTokenIds {

    private final long minReloadNanos;
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean reloading = new AtomicBoolean();
    private volatile boolean loaded;
    private volatile long loadedAtNanos;

    KnownTokenIds(long minReloadNanos) {
        this.minReloadNanos = minReloadNanos;
    }

    boolean contains(String id) {
        return ids.contains(id);
    }

    void add(String id) {
        ids.add(id);
    }

    void remove(String id) {
        ids.remove(id);
    }

    /** Whether a reload may run now (none ran within the interval and none is running). */
    boolean reloadDue(long nowNanos) {
        return !reloading.get() && (!loaded || nowNanos - loadedAtNanos >= minReloadNanos);
    }

    /**
     * Reloads from {@code load} if due, unless another caller is reloading; returns whether this call reloaded.
     * Blocks (the store is asked).
     */
    boolean reload(long nowNanos, Loader load) throws Exception {
        if (!reloadDue(nowNanos) || !reloading.compareAndSet(false, true)) {
            return false;
        }
        try {
            Set<String> fresh = load.ids();
            ids.retainAll(fresh);
            ids.addAll(fresh);
            loadedAtNanos = nowNanos;
            loaded = true;
            return true;
        } finally {
            reloading.set(false);
        }
    }

    int size() {
        return ids.size();
    }

    /** Reads every active token id from the store. */
    interface Loader {
        Set<String> ids() throws Exception;
    }
}
