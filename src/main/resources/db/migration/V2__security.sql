-- API tokens. The secret is never stored: only its SHA-256. A token is presented as llt_<id>_<secret>
-- and looked up by its id (the primary key), never by scanning hashes.
CREATE TABLE api_token (
    id            TEXT        PRIMARY KEY,
    name          TEXT        NOT NULL,
    role          TEXT        NOT NULL CHECK (role IN ('viewer', 'operator', 'admin', 'ingest')),
    -- Kubernetes namespaces the token may act on; empty means fleet-wide.
    namespaces    TEXT[]      NOT NULL DEFAULT '{}',
    secret_sha256 BYTEA       NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    created_by    TEXT        NOT NULL,
    expires_at    TIMESTAMPTZ,
    revoked_at    TIMESTAMPTZ,
    revoked_by    TEXT,
    -- Written in batches (at most once a minute per token), not on every request.
    last_used_at  TIMESTAMPTZ
);

-- Start-up asks "is there a usable admin token?"; keep that answer an index lookup.
CREATE INDEX api_token_active_role ON api_token (role) WHERE revoked_at IS NULL;

-- Security events worth keeping: tokens created and revoked, the first admin token written at start-up.
-- Authentication failures are counted as metrics instead (an attacker must not be able to fill this table).
CREATE TABLE security_audit (
    seq       BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time      TIMESTAMPTZ NOT NULL,
    action    TEXT        NOT NULL,
    actor     TEXT        NOT NULL,
    token_id  TEXT,
    detail    TEXT
);

CREATE INDEX security_audit_time ON security_audit (time DESC, seq DESC);
