package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenCacheTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private static ApiToken token(String id) {
        return new ApiToken(id, "n", Role.VIEWER, List.of(), new byte[32], T0, "test", null, null, null, null);
    }

    @Test
    void entryIsFreshForTheTtlThenMustBeReloaded() {
        TokenCache c = new TokenCache(Duration.ofSeconds(10), Duration.ofMinutes(15), 100);
        c.put("a", token("a"), T0);
        assertThat(c.fresh("a", T0.plusSeconds(9))).isNotNull();
        assertThat(c.fresh("a", T0.plusSeconds(10))).isNull();
    }

    @Test
    void unknownIdsAreRememberedAsUnknown() {
        TokenCache c = new TokenCache(Duration.ofSeconds(10), Duration.ofMinutes(15), 100);
        c.put("zz", null, T0);
        TokenCache.Entry e = c.fresh("zz", T0.plusSeconds(1));
        assertThat(e).isNotNull();
        assertThat(e.token()).isNull();
    }

    @Test
    void invalidatedEntryIsGoneAtOnce() {
        TokenCache c = new TokenCache(Duration.ofSeconds(10), Duration.ofMinutes(15), 100);
        c.put("a", token("a"), T0);
        c.invalidate("a");
        assertThat(c.fresh("a", T0)).isNull();
        assertThat(c.staleAfterError("a", T0)).isNull();
    }

    @Test
    void staleEntryServesWhileTheStoreIsDownWithinTheWindowOnly() {
        TokenCache c = new TokenCache(Duration.ofSeconds(10), Duration.ofMinutes(15), 100);
        c.put("a", token("a"), T0);
        TokenCache.Entry stale = c.staleAfterError("a", T0.plusSeconds(60));
        assertThat(stale).isNotNull();
        // Trusted for another TTL so the outage costs one failed query per period, not per request.
        assertThat(c.fresh("a", T0.plusSeconds(65))).isNotNull();
        assertThat(c.staleAfterError("a", T0.plus(Duration.ofMinutes(16)))).isNull();
        c.put("u", null, T0);
        assertThat(c.staleAfterError("u", T0.plusSeconds(60)))
                .as("unknown ids are never served stale")
                .isNull();
    }

    @Test
    void sizeStaysBounded() {
        TokenCache c = new TokenCache(Duration.ofSeconds(10), Duration.ofMinutes(15), 50);
        for (int i = 0; i < 10_000; i++) {
            c.put("id" + i, i % 2 == 0 ? token("id" + i) : null, T0.plusMillis(i));
        }
        assertThat(c.size()).isLessThanOrEqualTo(50);
        c.put("last", token("last"), T0.plusSeconds(20));
        assertThat(c.fresh("last", T0.plusSeconds(21))).isNotNull();
    }
}
