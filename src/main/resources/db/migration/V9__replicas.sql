-- Replicas share one fleet through the event log (see docs/architecture.md, "Replicas").

-- Dedupe on (source, event_id) alone: a CloudEvent is identified by its source and id, whatever its time. The log is
-- partitioned by time, so its own unique key must include the time; this table holds the durable key. Retention
-- trims it by event time, with the log.
CREATE TABLE event_ids (
    source    TEXT        NOT NULL,
    event_id  TEXT        NOT NULL,
    time      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, event_id)
);
INSERT INTO event_ids (source, event_id, time)
SELECT source, event_id, min(time) FROM event_log GROUP BY source, event_id;
CREATE INDEX event_ids_time ON event_ids (time);

-- Every replica follows the log in the order of seq. Writers commit one at a time (a transaction advisory lock taken
-- before the insert), so a reader that has seen seq n has seen every committed row below n.
CREATE INDEX event_log_seq ON event_log (seq);

-- Kafka offsets consumed into the log, written in the same transaction as the events they produced: a replica that
-- takes a partition over resumes exactly after the last stored batch.
CREATE TABLE ingest_offsets (
    consumer     TEXT   NOT NULL,
    topic        TEXT   NOT NULL,
    partition    INT    NOT NULL,
    next_offset  BIGINT NOT NULL,
    PRIMARY KEY (consumer, topic, partition)
);

-- Leadership is a lease, not a session lock: a leader that is paused (or cut off from the database) longer than the
-- lease loses it, and its successor's term fences the paused leader's writes.
ALTER TABLE leader_term ADD COLUMN holder TEXT;
ALTER TABLE leader_term ADD COLUMN expires_at TIMESTAMPTZ;
