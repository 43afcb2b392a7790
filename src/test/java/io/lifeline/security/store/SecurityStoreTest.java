package io.lifeline.security.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.PostgresResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Tokens and the security audit through the Hibernate store: what is written is read back whole, and once. */
@QuarkusTest
class SecurityStoreTest {

    @Inject
    SecurityStore store;

    @Inject
    SsoTickets tickets;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private static ApiToken token(Role role, List<String> namespaces, List<String> nodes, List<String> sources) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return new ApiToken(
                id,
                "store test " + id,
                role,
                namespaces,
                new byte[] {1, 2, 3, (byte) 0xff},
                at,
                "tester [tok-test]",
                at.plus(Duration.ofDays(1)),
                null,
                null,
                null,
                nodes,
                sources);
    }

    @Test
    void aTokenIsReadBackAsItWasStoredWithItsAuditRecord() {
        ApiToken t = token(Role.OPERATOR, List.of("team-a", "team-b"), List.of(), List.of());
        ApiToken bound = token(Role.INGEST, List.of(), List.of("node-1", "node-2"), List.of("dcgm"));
        store.create(t, "detail of " + t.id());
        store.create(bound, "detail of " + bound.id());

        ApiToken back = store.find(t.id());
        assertThat(back).usingRecursiveComparison().isEqualTo(t);
        assertThat(back.caller().actor()).isEqualTo(t.caller().actor());
        assertThat(store.find(bound.id())).usingRecursiveComparison().isEqualTo(bound);
        assertThat(store.find("no-such-token")).isNull();
        assertThat(store.activeIds()).contains(t.id(), bound.id());
        assertThat(store.list(1000)).extracting(ApiToken::id).contains(t.id(), bound.id());
        assertThat(store.audit(1000))
                .filteredOn(r -> t.id().equals(r.tokenId()))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.action()).isEqualTo("token.created");
                    assertThat(r.actor()).isEqualTo("tester [tok-test]");
                    assertThat(r.detail()).isEqualTo("detail of " + t.id());
                    assertThat(r.time()).isEqualTo(t.createdAt());
                });
    }

    @Test
    void aTokenIsRevokedOnceAndAnUnknownOneIsNotFound() {
        ApiToken t = token(Role.VIEWER, List.of(), List.of(), List.of());
        store.create(t, "to revoke");

        assertThat(store.revoke(t.id(), "admin [tok-a]", now)).isTrue();
        assertThat(store.revoke(t.id(), "other [tok-b]", now.plusSeconds(5)))
                .as("revoking a revoked token changes nothing")
                .isTrue();
        assertThat(store.revoke("no-such-token", "admin [tok-a]", now)).isFalse();

        ApiToken back = store.find(t.id());
        assertThat(back.revokedAt()).isEqualTo(now);
        assertThat(back.revokedBy()).isEqualTo("admin [tok-a]");
        assertThat(back.status(now)).isEqualTo(ApiToken.Status.REVOKED);
        assertThat(store.activeIds()).doesNotContain(t.id());
        assertThat(store.audit(1000))
                .filteredOn(r -> t.id().equals(r.tokenId()) && r.action().equals("token.revoked"))
                .singleElement()
                .satisfies(r -> assertThat(r.actor()).isEqualTo("admin [tok-a]"));
    }

    @Test
    void lastUseTimesAreWrittenInOneBatchAndNeverMoveBackwards() {
        ApiToken a = token(Role.VIEWER, List.of(), List.of(), List.of());
        ApiToken b = token(Role.INGEST, List.of(), List.of(), List.of());
        store.create(a, "a");
        store.create(b, "b");

        store.touch(Map.of(a.id(), now, b.id(), now.minusSeconds(30), "no-such-token", now));
        assertThat(store.find(a.id()).lastUsedAt()).isEqualTo(now);
        assertThat(store.find(b.id()).lastUsedAt()).isEqualTo(now.minusSeconds(30));

        // Another replica's older batch, written after a newer one, keeps the newer time.
        store.touch(Map.of(a.id(), now.minusSeconds(60), b.id(), now));
        assertThat(store.find(a.id()).lastUsedAt()).isEqualTo(now);
        assertThat(store.find(b.id()).lastUsedAt()).isEqualTo(now);
        store.touch(Map.of());
    }

    @Test
    void aSecondAdminIsNotCreatedWhileOneIsActive() {
        store.create(token(Role.ADMIN, List.of(), List.of(), List.of()), "an active admin");
        AtomicBoolean made = new AtomicBoolean();
        ApiToken created = store.createAdminIfNone(
                now,
                () -> {
                    made.set(true);
                    return token(Role.ADMIN, List.of(), List.of(), List.of());
                },
                "first admin");
        assertThat(created).isNull();
        assertThat(made).as("the token is not even made").isFalse();
    }

    @Test
    void whileTheDatabaseIsDownEveryCallFailsAsUnavailable() throws Exception {
        ApiToken t = token(Role.VIEWER, List.of(), List.of(), List.of());
        Caller dana = Caller.ofIdentityProvider("sub-dana", "dana", Role.VIEWER, List.of());
        PostgresResource.stopServer();
        try {
            assertThatThrownBy(() -> store.find(t.id()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("the token store is unavailable; retry later");
            assertThatThrownBy(() -> store.create(t, "during the outage"))
                    .isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> store.touch(Map.of(t.id(), now))).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> store.audit(10)).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> tickets.issue(dana))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("the sign-in store is unavailable; retry later");
            assertThatThrownBy(() -> tickets.redeem("some-ticket")).isInstanceOf(StoreUnavailableException.class);
        } finally {
            PostgresResource.restartServer();
        }
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> store.find(t.id()) == null);
        store.create(t, "after the outage");
        assertThat(store.find(t.id())).isNotNull();
    }
}
