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

    private record Entry(Caller caller, Instant expires) {
    }

    private final Map<String, Entry> tickets = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;

    SsoTickets(Clock clock) {
        this.clock = clock;
    }

    /** Issues a ticket for the caller. */
    public String issue(Caller caller) {
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
        tickets.put(ticket, new Entry(caller, now.plus(TTL)));
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

    private void purge(Instant now) {
        for (Iterator<Entry> it = tickets.values().iterator(); it.hasNext(); ) {
            if (!now.isBefore(it.next().expires())) {
                it.remove();
            }
        }
    }
}
