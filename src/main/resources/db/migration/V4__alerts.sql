-- Alerts (io.lifeline.alert): state of each alert, silences, and the delivery outbox with one row per attempt.
-- Self-contained: no reference to other tables.

-- Pending, firing and recently resolved alerts, one row per fingerprint (rule + labels). Written by the replica
-- that evaluates (the one holding the alerts advisory lock); read by every replica's API.
CREATE TABLE alert_state (
    fingerprint   TEXT        PRIMARY KEY,
    rule          TEXT        NOT NULL,
    namespace     TEXT,
    state         TEXT        NOT NULL CHECK (state IN ('pending', 'firing', 'resolved')),
    labels        JSONB       NOT NULL,
    annotations   JSONB       NOT NULL,
    active_since  TIMESTAMPTZ NOT NULL,
    firing_since  TIMESTAMPTZ,
    resolved_at   TIMESTAMPTZ,
    updated_at    TIMESTAMPTZ NOT NULL,
    value         DOUBLE PRECISION
);

CREATE INDEX alert_state_state ON alert_state (state, rule);
CREATE INDEX alert_state_resolved ON alert_state (resolved_at) WHERE state = 'resolved';

-- Silences: alerts whose labels match every matcher are not delivered between starts_at and ends_at.
CREATE TABLE alert_silence (
    id          TEXT        PRIMARY KEY,
    matchers    JSONB       NOT NULL,
    starts_at   TIMESTAMPTZ NOT NULL,
    ends_at     TIMESTAMPTZ NOT NULL,
    created_by  TEXT        NOT NULL,
    comment     TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    expired_by  TEXT
);

CREATE INDEX alert_silence_ends ON alert_silence (ends_at);

-- The outbox: one notification per group state change and receiver (webhook, slack), written in the same
-- transaction as the alert state it reports, then delivered at least once. The idempotency key is the same on
-- every attempt; (receiver, idempotency_key) is unique, so a notification is never queued twice.
CREATE TABLE alert_notification (
    id               BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    receiver         TEXT        NOT NULL,
    receiver_kind    TEXT        NOT NULL,
    idempotency_key  TEXT        NOT NULL,
    group_key        TEXT        NOT NULL,
    status           TEXT        NOT NULL,
    body             BYTEA       NOT NULL,
    state            TEXT        NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         INT         NOT NULL DEFAULT 0,
    next_attempt_at  TIMESTAMPTZ NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ,
    last_error       TEXT,
    UNIQUE (receiver, idempotency_key)
);

CREATE INDEX alert_notification_due ON alert_notification (next_attempt_at) WHERE state = 'pending';

-- Every delivery attempt with its outcome (Alertmanager pushes have no notification row).
CREATE TABLE alert_delivery_attempt (
    id               BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id  BIGINT,
    receiver         TEXT        NOT NULL,
    receiver_kind    TEXT        NOT NULL,
    attempt          INT         NOT NULL,
    attempted_at     TIMESTAMPTZ NOT NULL,
    outcome          TEXT        NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed')),
    http_status      INT,
    duration_ms      BIGINT      NOT NULL,
    error            TEXT
);

CREATE INDEX alert_delivery_attempt_notification ON alert_delivery_attempt (notification_id);
CREATE INDEX alert_delivery_attempt_time ON alert_delivery_attempt (attempted_at);
