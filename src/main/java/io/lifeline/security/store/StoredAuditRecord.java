package io.lifeline.security.store;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A row of {@code security_audit} (V2): a security event worth keeping. Written by {@link SecurityAuditRepository}. */
@Entity
@Table(name = "security_audit")
public class StoredAuditRecord extends PanacheEntityBase {

    /** Given by the database ({@code GENERATED ALWAYS AS IDENTITY}). */
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long seq;

    public Instant time;

    public String action;

    public String actor;

    @Column(name = "token_id")
    public String tokenId;

    public String detail;

    static StoredAuditRecord of(Instant time, String action, String actor, String tokenId, String detail) {
        StoredAuditRecord row = new StoredAuditRecord();
        row.time = time;
        row.action = action;
        row.actor = actor;
        row.tokenId = tokenId;
        row.detail = detail;
        return row;
    }

    SecurityStore.AuditRecord record() {
        return new SecurityStore.AuditRecord(seq, time, action, actor, tokenId, detail);
    }
}
