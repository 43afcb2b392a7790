package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenBucketsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void burstIsGrantedThenRequestsWaitForTheRefill() {
        TokenBuckets b = new TokenBuckets(2, 5, 100);
        long t = 1_000 * SECOND;
        for (int i = 0; i < 5; i++) {
            assertThat(b.tryAcquire("k", t)).isZero();
        }
        long wait = b.tryAcquire("k", t);
        assertThat(wait).isEqualTo(SECOND / 2);
        assertThat(TokenBuckets.retryAfterSeconds(wait)).isEqualTo(1);
        assertThat(b.tryAcquire("k", t + SECOND / 2)).isZero();
        assertThat(b.tryAcquire("k", t + SECOND / 2)).isPositive();
    }

    @Test
    void bucketsAreIndependentPerKey() {
        TokenBuckets b = new TokenBuckets(1, 1, 100);
        assertThat(b.tryAcquire("a", 0)).isZero();
        assertThat(b.tryAcquire("a", 0)).isPositive();
        assertThat(b.tryAcquire("b", 0)).isZero();
    }

    @Test
    void refillNeverExceedsTheBurst() {
        TokenBuckets b = new TokenBuckets(10, 3, 100);
        b.tryAcquire("k", 0);
        long later = 3600 * SECOND;
        for (int i = 0; i < 3; i++) {
            assertThat(b.tryAcquire("k", later)).isZero();
        }
        assertThat(b.tryAcquire("k", later)).isPositive();
    }

    @Test
    void slowRatesGiveRetryAfterInWholeSeconds() {
        TokenBuckets b = new TokenBuckets(0.1, 1, 100);
        b.tryAcquire("k", 0);
        assertThat(TokenBuckets.retryAfterSeconds(b.tryAcquire("k", 0))).isEqualTo(10);
    }

    @Test
    void keysStayBoundedIdleBucketsGoFirst() {
        TokenBuckets b = new TokenBuckets(1, 1, 10);
        for (int i = 0; i < 1000; i++) {
            b.tryAcquire("k" + i, i * SECOND);
        }
        assertThat(b.size()).isLessThanOrEqualTo(10);
    }
}
