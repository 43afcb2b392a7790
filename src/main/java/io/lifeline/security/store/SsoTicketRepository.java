package io.lifeline.security.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Optional;

/** Sign-in tickets (table {@code sso_ticket}), each method one transaction. */
@ApplicationScoped
public class SsoTicketRepository implements PanacheRepositoryBase<StoredTicket, byte[]> {

    /**
     * Deletes the tickets expired at {@code now}, then stores {@code ticket} unless {@code max} unexpired ones are
     * stored already.
     *
     * @return whether it was stored
     */
    @Transactional
    public boolean issue(StoredTicket ticket, Instant now, int max) {
        delete("expiresAt <= ?1", now);
        return getEntityManager()
                        .createNamedQuery(StoredTicket.ISSUE_BOUNDED)
                        .setParameter("hash", ticket.ticketSha256)
                        .setParameter("subject", ticket.subject)
                        .setParameter("tokenId", ticket.tokenId)
                        .setParameter("name", ticket.name)
                        .setParameter("role", ticket.role)
                        .setParameter("namespaces", ticket.namespaces)
                        .setParameter("expiresAt", ticket.expiresAt)
                        .setParameter("identityExpires", ticket.identityExpires)
                        .setParameter("now", now)
                        .setParameter("max", max)
                        .executeUpdate()
                > 0;
    }

    /**
     * Takes the ticket with this SHA-256 out of the store and answers it, expired or not; empty when it is unknown or
     * another transaction took it first. Of several redeeming the same ticket at once, on any replica, one gets it:
     * the others' delete waits for the first to commit and then finds no row.
     */
    @Transactional
    public Optional<StoredTicket> take(byte[] sha256) {
        Optional<StoredTicket> found = find("ticketSha256", sha256).firstResultOptional();
        if (found.isEmpty() || delete("ticketSha256", sha256) == 0) {
            return Optional.empty();
        }
        return found;
    }

    /** Tickets stored, expired or not. */
    @Transactional
    public long stored() {
        return count();
    }
}
