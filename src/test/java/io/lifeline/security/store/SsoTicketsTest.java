package io.lifeline.security.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agroal.api.AgroalDataSource;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sign-in tickets in PostgreSQL, whichever replica answers: two instances over one database play the replica that
 * handled the identity provider's callback and the one the dashboard's request reached next. Both go through the
 * application's Hibernate repository, with the test's clock and their own bound.
 */
@QuarkusTest
class SsoTicketsTest {

    @Inject
    SsoTicketRepository repository;

    @Inject
    AgroalDataSource dataSource;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final Caller dana =
            Caller.ofIdentityProvider("sub-dana", "dana", Role.OPERATOR, List.of("team-a", "team-b"));

    @BeforeEach
    void empty() throws Exception {
        try (var c = dataSource.getConnection();
                var st = c.createStatement()) {
            st.execute("DELETE FROM sso_ticket");
        }
    }

    private SsoTickets replica(int max) {
        return new SsoTickets(repository, clock, max);
    }

    @Test
    void aTicketIssuedByOneReplicaIsRedeemedAtTheOtherOnceOnly() {
        SsoTickets a = replica(100);
        SsoTickets b = replica(100);
        Instant signInEnds = clock.instant().plus(Duration.ofHours(8));
        String ticket = a.issue(dana, signInEnds);

        Optional<SsoTickets.Redeemed> redeemed = b.redeemSignIn(ticket);
        assertThat(redeemed).hasValueSatisfying(r -> {
            assertThat(r.caller().name()).isEqualTo("dana");
            assertThat(r.caller().subject()).isEqualTo("sub-dana");
            assertThat(r.caller().role()).isEqualTo(Role.OPERATOR);
            assertThat(r.caller().namespaces()).containsExactly("team-a", "team-b");
            assertThat(r.caller().actor()).isEqualTo(dana.actor());
            assertThat(r.identityExpires()).isEqualTo(signInEnds);
        });
        assertThat(a.redeemSignIn(ticket)).as("single use, on any replica").isEmpty();
        assertThat(b.redeem(ticket)).isEmpty();
    }

    @Test
    void aTicketRacedByBothReplicasAtOnceIsRedeemedByOne() throws Exception {
        SsoTickets a = replica(100);
        SsoTickets b = replica(100);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 20; round++) {
                String ticket = a.issue(dana);
                List<Callable<Optional<Caller>>> tries = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    SsoTickets r = i % 2 == 0 ? a : b;
                    tries.add(() -> r.redeem(ticket));
                }
                int redeemed = 0;
                for (Future<Optional<Caller>> f : pool.invokeAll(tries)) {
                    redeemed += f.get().isPresent() ? 1 : 0;
                }
                assertThat(redeemed).as("round " + round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExpiredTicketGivesNothingAndIsDeleted() throws Exception {
        SsoTickets a = replica(100);
        String old = a.issue(dana);
        clock.advance(SsoTickets.TTL);
        assertThat(replica(100).redeem(old)).isEmpty();

        a.issue(dana);
        String kept = a.issue(dana);
        clock.advance(SsoTickets.TTL);
        a.issue(dana);
        assertThat(a.stored())
                .as("every ticket issued a minute ago or more is gone")
                .isEqualTo(1);
        assertThat(a.redeem(kept)).isEmpty();
    }

    @Test
    void signInsInProgressAreBoundedAcrossReplicasAndFreeAgainOnceExpired() {
        SsoTickets a = replica(3);
        SsoTickets b = replica(3);
        a.issue(dana);
        b.issue(dana);
        a.issue(dana);
        assertThatThrownBy(() -> b.issue(dana))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("too many sign-ins in progress");
        clock.advance(SsoTickets.TTL);
        String fresh = b.issue(dana);
        assertThat(a.redeem(fresh)).isPresent();
    }

    @Test
    void theTableHoldsNoRedeemableTicket() throws Exception {
        String ticket = replica(100).issue(dana);
        try (var c = dataSource.getConnection();
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT encode(ticket_sha256, 'escape'), encode(ticket_sha256, 'base64'),"
                        + " encode(ticket_sha256, 'hex') FROM sso_ticket")) {
            assertThat(rs.next()).isTrue();
            for (int i = 1; i <= 3; i++) {
                assertThat(rs.getString(i)).doesNotContain(ticket);
            }
        }
        assertThat(replica(100).redeem(ticket)).isPresent();
    }
}
