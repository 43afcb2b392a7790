-- Checkpoints of the in-memory model: its whole state, encoded and compressed by the application (format names the
-- encoding), with the position in the event log up to which it had applied events: every seq up to applied_seq, and
-- the seqs in applied_ahead beyond it. Start-up restores the newest one and replays only the events after it, and the
-- facts it holds outlive the log's retention. Only the newest few are kept.
CREATE TABLE model_checkpoint (
    id             BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    taken_at       TIMESTAMPTZ NOT NULL,
    format         INT         NOT NULL,
    applied_seq    BIGINT      NOT NULL,
    applied_ahead  BIGINT[]    NOT NULL DEFAULT '{}',
    body           BYTEA       NOT NULL
);

-- The body is compressed already: store it out of line without trying to compress it again.
ALTER TABLE model_checkpoint ALTER COLUMN body SET STORAGE EXTERNAL;

-- The log is read back after a checkpoint by seq, with the index V9 made (event_log_seq).
