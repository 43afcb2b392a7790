-- A job's whole timeline, beyond the last entries the model keeps in memory: written in batches off the model
-- thread, read by job with keyset paging in the order of the API's cursor (event millisecond, then sequence).
-- Rebuilt idempotently by the replay at start-up, so a log stored by an earlier release fills it on first start.
CREATE TABLE job_timeline (
    job          TEXT        NOT NULL,
    incarnation  BIGINT      NOT NULL,
    seq          BIGINT      NOT NULL,
    time_ms      BIGINT      NOT NULL,
    time         TIMESTAMPTZ NOT NULL,
    kind         TEXT        NOT NULL,
    type         TEXT        NOT NULL,
    summary      TEXT        NOT NULL,
    incident_id  TEXT,
    PRIMARY KEY (job, incarnation, seq)
);

CREATE INDEX job_timeline_page ON job_timeline (job, incarnation, time_ms, seq);
-- Retention removes the history of days the event log no longer holds.
CREATE INDEX job_timeline_time ON job_timeline (time);
