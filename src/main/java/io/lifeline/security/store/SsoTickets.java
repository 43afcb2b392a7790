package io.lifeline.security.store;

import io.lifeline.eventlog.StoreCalls;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Hands a browser sign-in from the OIDC callback (a REST endpoint) to the dashboard (a Vaadin session): a random,
 * single-use ticket valid for a minute, carried by an HttpOnly cookie between the two requests. Kept in PostgreSQL
 * (table {@code sso_ticket}, only the ticket's SHA-256), because the two requests may reach different replicas;
 * redeeming deletes the row, and only the transaction whose delete took it answers, so a ticket is redeemed once
 * across all of them. Bounded: expired tickets are deleted at every issue, and beyond {@value #MAX} sign-ins in
 * progress a new one is refused (one named statement inserts only below the bound, see {@link StoredTicket}).
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

    private static final String WHAT = "the sign-in store";

    private final SsoTicketRepository tickets;
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final int max;

    @Inject
    SsoTickets(SsoTicketRepository tickets, Clock clock) {
        this(tickets, clock, MAX);
    }

    /** At most {@code max} sign-ins in progress (tests: several replicas over one database, a small bound). */
    SsoTickets(SsoTicketRepository tickets, Clock clock, int max) {
        this.tickets = tickets;
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
        StoredTicket row = new StoredTicket();
        row.ticketSha256 = sha256(ticket);
        row.subject = caller.subject();
        row.tokenId = caller.tokenId();
        row.name = caller.name();
        row.role = caller.role() == null ? null : caller.role().wireName();
        row.namespaces = caller.namespaces().toArray(new String[0]);
        row.expiresAt = now.plus(TTL);
        row.identityExpires = identityExpires;
        if (!StoreCalls.call(WHAT, () -> tickets.issue(row, now, max))) {
            throw new IllegalStateException("too many sign-ins in progress; retry in a minute");
        }
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
        byte[] sha256 = sha256(ticket);
        return StoreCalls.call(WHAT, () -> tickets.take(sha256))
                .filter(row -> clock.instant().isBefore(row.expiresAt))
                .map(row -> new Redeemed(caller(row), row.identityExpires));
    }

    /** Tickets stored, expired or not (tests). */
    long stored() {
        return StoreCalls.call(WHAT, tickets::stored);
    }

    private static Caller caller(StoredTicket row) {
        Role role = row.role == null ? null : Role.fromWireName(row.role);
        List<String> namespaces = row.namespaces == null ? List.of() : List.of(row.namespaces);
        if (row.subject != null) {
            return Caller.ofIdentityProvider(row.subject, row.name, role, namespaces);
        }
        if (row.tokenId != null) {
            return Caller.ofToken(row.tokenId, row.name, role, namespaces);
        }
        return role == null ? Caller.anonymous() : Caller.unrestricted(row.name);
    }

    private static byte[] sha256(String ticket) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
