package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The ids of real tokens, kept to tell them from made-up ones without a lookup: a token made on another replica is
 * known after the next reload, a revoked one is forgotten, and however many callers ask, the store is read at most
 * once per interval and by one caller at a time.
 */
class KnownTokenIdsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void reloadsAtMostOncePerIntervalAndPicksUpOtherReplicasTokens() throws Exception {
        Set<String> store = new HashSet<>(Set.of("a1", "b2"));
        AtomicInteger reads = new AtomicInteger();
        KnownTokenIds ids = new KnownTokenIds(SECOND);
        KnownTokenIds.Loader loader = () -> {
            reads.incrementAndGet();
            return Set.copyOf(store);
        };
        assertThat(ids.contains("a1")).isFalse();
        assertThat(ids.reload(0, loader)).isTrue();
        assertThat(ids.contains("a1")).isTrue();
        store.add("c3"); // made on another replica
        store.remove("b2"); // revoked there
        assertThat(ids.reload(SECOND / 2, loader)).as("within the interval").isFalse();
        assertThat(ids.contains("c3")).isFalse();
        assertThat(ids.reload(SECOND, loader)).isTrue();
        assertThat(ids.contains("c3")).isTrue();
        assertThat(ids.contains("b2")).isFalse();
        assertThat(reads).hasValue(2);
        // Made on this replica: known at once, no reload needed.
        ids.add("d4");
        assertThat(ids.contains("d4")).isTrue();
    }

    @Test
    void oneReloadAtATime() throws Exception {
        KnownTokenIds ids = new KnownTokenIds(SECOND);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            try {
                ids.reload(0, () -> {
                    inside.countDown();
                    release.await();
                    return Set.of("x");
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();
        inside.await();
        assertThat(ids.reloadDue(10 * SECOND)).isFalse();
        assertThat(ids.reload(10 * SECOND, () -> Set.of("y"))).isFalse();
        release.countDown();
        first.join();
        assertThat(ids.contains("x")).isTrue();
        assertThat(ids.contains("y")).isFalse();
    }
}
