package io.lifeline.security.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;

/**
 * The security audit (table {@code security_audit}). A record written alongside a token change joins that change's
 * transaction.
 */
@ApplicationScoped
public class SecurityAuditRepository implements PanacheRepositoryBase<StoredAuditRecord, Long> {

    /** Records a security event, in the caller's transaction if there is one. */
    @Transactional
    public void record(Instant time, String action, String actor, String tokenId, String detail) {
        persist(StoredAuditRecord.of(time, action, actor, tokenId, detail));
    }

    /** Up to {@code limit} records, newest first. */
    @Transactional
    public List<StoredAuditRecord> newest(int limit) {
        return findAll(Sort.descending("time", "seq")).page(0, limit).list();
    }
}
