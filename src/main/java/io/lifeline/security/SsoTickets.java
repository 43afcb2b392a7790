package io.lifeline.security;

import io.agroal.api.AgroalDataSource;
import io.lifeline.eventlog.Jdbc;
import io.lifeline.eventlog.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Hands a browser sign-in from the OIDC callback (a REST endpoint) to the dashboard (a Vaadin session): a random,
 * single-use ticket valid for a minute, carried by an HttpOnly cookie between the two requests. Kept in PostgreSQL
 * (table {@code sso_ticket}, only the ticket's SHA-256), because the two requests may reach different replicas;
 * redeeming is one {@code DELETE ... RETURNING}, so a ticket is redeemed once across all of them. Bounded: expired
 * tickets are deleted at every issue, and beyond {@value #MAX} sign-ins in progress a new one is refused.
 */
@ApplicationScoped
public class SsoTickets {

    /** The cookie that carries the ticket from the callback to the dashboard. */
    public static final String COOKIE = "lifeline_sso";

    static final Duration TTL = Duration.ofSeconds(60);
    static final int MAX = 10_000;

    /**
     * A redeemed ticket: its caller, and when the identity provider's sign-in behind it expires (null: not known).
     */
    public record Redeemed(Caller caller, Instant identityExpires) {}

    private final Jdbc jdbc;
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final int max;

    @Inject
    SsoTickets(AgroalDataSource dataSource, Clock clock) {
        this((DataSource) dataSource, clock, MAX);
    }

    SsoTickets(DataSource dataSource, Clock clock, int max) {
        this.jdbc = new Jdbc(dataSource, "the sign-in store");
        this.clock = clock;
        this.max = max;
    }

    /** Issues a ticket for the caller. */
    public String issue(Caller caller) {
        return issue(caller, null);
    }

    /**
     * Issues a ticket for the caller, whose identity provider sign-in expires at {@code identityExpires}.
     *
     * @throws IllegalStateException when too many sign-ins are in progress
     * @throws StoreUnavailableException when PostgreSQL does not take it
     */
    public String issue(Caller caller, Instant identityExpires) {
        Instant now = clock.instant();
        byte[] b = new byte[32];
        random.nextBytes(b);
        String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        // The bound is checked in the statement that inserts, so that no two replicas both pass it by much.
        String sql = "INSERT INTO sso_ticket (ticket_sha256, subject, token_id, name, role, namespaces, expires_at,"
                + " identity_expires) SELECT ?, ?, ?, ?, ?, ?, ?, ?"
                + " WHERE (SELECT count(*) FROM sso_ticket WHERE expires_at > ?) < ?";
        jdbc.withConnection(c -> {
            Jdbc.update(c, "DELETE FROM sso_ticket WHERE expires_at <= ?", now);
            int inserted = Jdbc.update(c, sql, ps -> {
                ps.setBytes(1, sha256(ticket));
                ps.setString(2, caller.subject());
                ps.setString(3, caller.tokenId());
                ps.setString(4, caller.name());
                ps.setString(5, caller.role() == null ? null : caller.role().wireName());
                Array ns = c.createArrayOf("text", caller.namespaces().toArray());
                ps.setArray(6, ns);
                ps.setTimestamp(7, Timestamp.from(now.plus(TTL)));
                ps.setTimestamp(8, identityExpires == null ? null : Timestamp.from(identityExpires));
                ps.setTimestamp(9, Timestamp.from(now));
                ps.setInt(10, max);
            });
            if (inserted == 0) {
                throw new IllegalStateException("too many sign-ins in progress; retry in a minute");
            }
            return null;
        });
        return ticket;
    }

    /** The ticket's caller, once: a redeemed, unknown or expired ticket gives nothing. */
    public Optional<Caller> redeem(String ticket) {
        return redeemSignIn(ticket).map(Redeemed::caller);
    }

    /**
     * The ticket's caller and its sign-in's expiry, once, on whichever replica: a redeemed, unknown or expired
     * ticket gives nothing.
     */
    public Optional<Redeemed> redeemSignIn(String ticket) {
        if (ticket == null || ticket.isEmpty() || ticket.length() > 256) {
            return Optional.empty();
        }
        String sql = "DELETE FROM sso_ticket WHERE ticket_sha256 = ? RETURNING subject, token_id, name, role,"
                + " namespaces, expires_at, identity_expires";
        return jdbc.one(
                sql,
                rs -> clock.instant().isBefore(rs.getTimestamp(6).toInstant())
                        ? new Redeemed(caller(rs), Jdbc.instant(rs, 7))
                        : null,
                (Object) sha256(ticket));
    }

    /** Tickets stored, expired or not (tests). */
    int stored() {
        return jdbc.one("SELECT count(*) FROM sso_ticket", rs -> rs.getInt(1)).orElseThrow();
    }

    private static Caller caller(ResultSet rs) throws SQLException {
        String subject = rs.getString(1);
        String tokenId = rs.getString(2);
        String name = rs.getString(3);
        Role role = rs.getString(4) == null ? null : Role.fromWireName(rs.getString(4));
        List<String> namespaces = List.of((String[]) rs.getArray(5).getArray());
        if (subject != null) {
            return Caller.ofIdentityProvider(subject, name, role, namespaces);
        }
        if (tokenId != null) {
            return Caller.ofToken(tokenId, name, role, namespaces);
        }
        return role == null ? Caller.anonymous() : Caller.unrestricted(name);
    }

    private static byte[] sha256(String ticket) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
