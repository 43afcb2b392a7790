-- State that must not live in one replica's memory: the Kubernetes Service has no affinity, so the next request of
-- an agent or a browser may reach any replica.

-- Commands waiting for agents that long-poll over HTTP. The leader queues a command (and NOTIFYs
-- lifeline_agent_commands with the job), whichever replica the agent's poll reaches delivers it, and the
-- acknowledgement, through any replica, is kept on the row so every replica knows it. At most
-- lifeline.commands.agent.queue-size rows per job; a row leaves at expires_at (the command's deadline, or its
-- retention when it has none).
CREATE TABLE agent_command (
    job          TEXT        NOT NULL,
    id           TEXT        NOT NULL,
    seq          BIGINT      GENERATED ALWAYS AS IDENTITY,
    type         TEXT        NOT NULL,
    params       JSONB       NOT NULL,
    issued_at    TIMESTAMPTZ,
    deadline     TIMESTAMPTZ,
    queued_at    TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    -- Null until delivered; a delivery older than redeliver-after without an acknowledgement is delivered again.
    delivered_at TIMESTAMPTZ,
    acked_at     TIMESTAMPTZ,
    ack_status   TEXT,
    ack_detail   TEXT,
    PRIMARY KEY (job, id)
);

CREATE INDEX agent_command_expiry ON agent_command (expires_at);

-- Single-use sign-in tickets handing an OIDC sign-in from the callback to the dashboard (a minute at most). Only the
-- SHA-256 of the ticket is stored: what the table holds cannot be redeemed.
CREATE TABLE sso_ticket (
    ticket_sha256    BYTEA       PRIMARY KEY,
    subject          TEXT,
    token_id         TEXT,
    name             TEXT        NOT NULL,
    role             TEXT,
    namespaces       TEXT[]      NOT NULL DEFAULT '{}',
    expires_at       TIMESTAMPTZ NOT NULL,
    identity_expires TIMESTAMPTZ
);

CREATE INDEX sso_ticket_expiry ON sso_ticket (expires_at);
