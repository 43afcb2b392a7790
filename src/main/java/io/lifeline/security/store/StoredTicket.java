package io.lifeline.security.store;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A row of {@code sso_ticket} (V10): a sign-in in progress, keyed by its ticket's SHA-256 (the ticket itself is never
 * stored). Read and written by {@link SsoTicketRepository}.
 */
@Entity
@Table(name = "sso_ticket")
@NamedNativeQuery(
        name = StoredTicket.ISSUE_BOUNDED,
        // The bound is checked in the statement that inserts, so that no two replicas both pass it by much.
        query = "INSERT INTO sso_ticket (ticket_sha256, subject, token_id, name, role, namespaces, expires_at,"
                + " identity_expires) SELECT CAST(:hash AS bytea), CAST(:subject AS text), CAST(:tokenId AS text),"
                + " CAST(:name AS text), CAST(:role AS text), CAST(:namespaces AS text[]),"
                + " CAST(:expiresAt AS timestamptz), CAST(:identityExpires AS timestamptz)"
                + " WHERE (SELECT count(*) FROM sso_ticket WHERE expires_at > CAST(:now AS timestamptz)) < :max")
public class StoredTicket extends PanacheEntityBase {

    static final String ISSUE_BOUNDED = "StoredTicket.issueBounded";

    @Id
    @Column(name = "ticket_sha256")
    public byte[] ticketSha256;

    /** The identity provider's subject, for a sign-in through it. */
    public String subject;

    /** The token's id, for a sign-in with a token. */
    @Column(name = "token_id")
    public String tokenId;

    public String name;

    /** The role's wire name; null for an anonymous caller. */
    public String role;

    public String[] namespaces;

    @Column(name = "expires_at")
    public Instant expiresAt;

    /** When the identity provider's sign-in behind the ticket expires; null: not known. */
    @Column(name = "identity_expires")
    public Instant identityExpires;
}
