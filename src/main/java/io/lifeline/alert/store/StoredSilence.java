package io.lifeline.alert.store;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A row of {@code alert_silence} (V4), as {@link SilenceStore} reads and writes it. The schema is Flyway's; this
 * mapping follows it column for column.
 */
@Entity
@Table(name = "alert_silence")
public class StoredSilence extends PanacheEntityBase {

    @Id
    public String id;

    /** The matchers as a JSON array of {@link SilenceStore.StoredMatcher} (column type jsonb). */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String matchers;

    @Column(name = "starts_at", nullable = false)
    public Instant startsAt;

    @Column(name = "ends_at", nullable = false)
    public Instant endsAt;

    @Column(name = "created_by", nullable = false)
    public String createdBy;

    @Column(nullable = false)
    public String comment;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** Who ended it early; null while it runs its course. */
    @Column(name = "expired_by")
    public String expiredBy;
}
