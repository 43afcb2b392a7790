package io.lifeline.eventlog;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A row of the event log, for reading. Rows are written in batches by {@link EventLogWriter}, not through JPA. */
@Entity
@Table(name = "event_log")
public class StoredEvent extends PanacheEntityBase {

    @Id
    public long seq;

    @Column(name = "event_id")
    public String eventId;

    public String source;

    public String type;

    public String subject;

    public Instant time;

    @Column(name = "received_at")
    public Instant receivedAt;

    @JdbcTypeCode(SqlTypes.JSON)
    public String data;
}
