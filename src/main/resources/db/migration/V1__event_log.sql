-- The event log: every lifecycle event Lifeline accepted, partitioned by event day so that retention
-- drops whole partitions instead of deleting rows under ingest.
CREATE TABLE event_log (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY,
    event_id     TEXT        NOT NULL,
    source       TEXT        NOT NULL,
    type         TEXT        NOT NULL,
    subject      TEXT        NOT NULL,
    time         TIMESTAMPTZ NOT NULL,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    data         JSONB       NOT NULL,
    PRIMARY KEY (time, seq),
    -- A CloudEvent is identified by (source, id); the partition key must be part of any unique index.
    UNIQUE (source, event_id, time)
) PARTITION BY RANGE (time);

-- Rows outside every daily partition (very late or far-future events) land here; retention deletes
-- from it in batches.
CREATE TABLE event_log_default PARTITION OF event_log DEFAULT;

CREATE INDEX event_log_subject_time ON event_log (subject, time, seq);
CREATE INDEX event_log_type_time ON event_log (type, time, seq);
