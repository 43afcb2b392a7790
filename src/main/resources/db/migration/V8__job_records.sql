-- Every incident and checkpoint of a job, beyond the newest ones the model keeps in memory. They change after they
-- are created (an incident closes, a checkpoint completes or is verified), so the latest version of each is kept:
-- upserted in batches off the model thread, read by job from the newest back in order of creation. Rebuilt
-- idempotently by the replay at start-up.
CREATE TABLE job_records (
    kind         TEXT        NOT NULL,
    job          TEXT        NOT NULL,
    incarnation  BIGINT      NOT NULL,
    id           TEXT        NOT NULL,
    ordinal      BIGINT      NOT NULL,
    time         TIMESTAMPTZ NOT NULL,
    body         JSONB       NOT NULL,
    PRIMARY KEY (kind, job, incarnation, id)
);

CREATE INDEX job_records_page ON job_records (kind, job, incarnation, ordinal);
-- Retention removes what the event log no longer holds.
CREATE INDEX job_records_time ON job_records (time);
