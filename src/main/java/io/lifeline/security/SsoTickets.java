package io.lifeline.security;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands a browser sign-in from the OIDC callback (a REST endpoint) to the dashboard (a Vaadin session): a random,
 * single-use ticket valid for a minute, carried by an HttpOnly cookie between the two requests. Bounded, so a flood
 * of sign-ins cannot grow memory.
 */
@ApplicationScoped
public class SsoTickets {

    /** The cookie that carries the ticket from the callback to the dashboard. */
    public static final String COOKIE = "lifeline_sso";
    static final Duration TTL = Duration.ofSeconds(60);
    private static final int MAX = 10_000;

    private record Entry(Caller caller, Instant expires, Instant identityExpires) {
    }

    /**
     * A redeemed ticket: its caller, and when the identity provider's sign-in behind it expires (null: not known).
     */
    public record Redeemed(Caller caller, Instant identityExpires) {
    }

    private final Map<String, Entry> tickets = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;

    SsoTickets(Clock clock) {
        this.clock = clock;
    }

    /** Issues a ticket for the caller. */
    public String issue(Caller caller) {
        return issue(caller, null);
    }

    /** Issues a ticket for the caller, whose identity provider sign-in expires at {@code identityExpires}. */
    public String issue(Caller caller, Instant identityExpires) {
        Instant now = clock.instant();
        if (tickets.size() >= MAX) {
            purge(now);
        }
        if (tickets.size() >= MAX) {
            throw new IllegalStateException("too many sign-ins in progress; retry in a minute");
        }
        byte[] b = new byte[32];
        random.nextBytes(b);
        String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        tickets.put(ticket, new Entry(caller, now.plus(TTL), identityExpires));
        return ticket;
    }

    /** The ticket's caller, once: a redeemed, unknown or expired ticket gives nothing. */
    public Optional<Caller> redeem(String ticket) {
        if (ticket == null) {
            return Optional.empty();
        }
        Entry e = tickets.remove(ticket);
        return e == null || !clock.instant().isBefore(e.expires()) ? Optional.empty() : Optional.of(e.caller());
    }

    /** The ticket's caller and its sign-in's expiry, once: a redeemed, unknown or expired ticket gives nothing. */
    public Optional<Redeemed> redeemSignIn(String ticket) {
        if (ticket == null) {
            return Optional.empty();
        }
        Entry e = tickets.remove(ticket);
        return e == null || !clock.instant().isBefore(e.expires()) ? Optional.empty()
                : Optional.of(new Redeemed(e.caller(), e.identityExpires()));
    }

    private void purge(Instant now) {
        for (Iterator<Entry> it = tickets.values().iterator(); it.hasNext(); ) {
            if (!now.isBefore(it.next().expires())) {
                it.remove();
            }
        }
    }
}
