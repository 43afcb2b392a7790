-- Actions: one row per action, its steps, and the audit trail of actions and policies.
CREATE TABLE action (
    id              TEXT        PRIMARY KEY,
    -- Newest-first paging without sorting by text ids.
    seq             BIGINT      GENERATED ALWAYS AS IDENTITY UNIQUE,
    kind            TEXT        NOT NULL,
    target          TEXT        NOT NULL,
    params          JSONB       NOT NULL,
    reason          TEXT        NOT NULL,
    requested_by    TEXT        NOT NULL,
    idempotency_key TEXT,
    state           TEXT        NOT NULL CHECK (state IN ('pending', 'running', 'succeeded', 'failed', 'cancelled')),
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    deadline        TIMESTAMPTZ,
    impact          JSONB,
    outcome         TEXT        NOT NULL DEFAULT '',
    cancel_requested BOOLEAN    NOT NULL DEFAULT FALSE
);

-- The same key from the same requester is the same action.
CREATE UNIQUE INDEX action_idempotency ON action (requested_by, idempotency_key) WHERE idempotency_key IS NOT NULL;
-- One lock per target: at most one unfinished action per node or job, held by the database across replicas.
CREATE UNIQUE INDEX action_target_in_flight ON action (target) WHERE state IN ('pending', 'running');
-- The executor's start-up question, "what is unfinished?", stays an index scan.
CREATE INDEX action_unfinished ON action (seq) WHERE state IN ('pending', 'running');
CREATE INDEX action_target ON action (target, seq DESC);

CREATE TABLE action_step (
    action_id  TEXT        NOT NULL REFERENCES action (id),
    seq        INT         NOT NULL,
    name       TEXT        NOT NULL,
    state      TEXT        NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed', 'skipped')),
    started_at TIMESTAMPTZ,
    ended_at   TIMESTAMPTZ,
    detail     TEXT        NOT NULL DEFAULT '',
    PRIMARY KEY (action_id, seq),
    -- A step is known by its name: after a restart, a step already done is found and never run again.
    UNIQUE (action_id, name)
);

CREATE TABLE audit_log (
    seq       BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time      TIMESTAMPTZ NOT NULL,
    actor     TEXT        NOT NULL,
    what      TEXT        NOT NULL,
    target    TEXT,
    action_id TEXT,
    reason    TEXT,
    before    TEXT,
    after     TEXT
);

CREATE INDEX audit_log_action ON audit_log (action_id, seq);
CREATE INDEX audit_log_target ON audit_log (target, seq);

CREATE TABLE policy (
    name       TEXT        PRIMARY KEY,
    mode       TEXT        NOT NULL CHECK (mode IN ('off', 'dry-run', 'on')),
    overrides  JSONB       NOT NULL DEFAULT '{}',
    updated_at TIMESTAMPTZ NOT NULL,
    updated_by TEXT        NOT NULL
);
