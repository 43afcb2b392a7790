-- Who may take and answer a job's commands over HTTP: the agent that claimed them with its key
-- (header Lifeline-Agent-Key). Only the SHA-256 of the key is stored. The claim holds while its agent polls (each poll
-- keeps it to expires_at: the poll's wait plus lifeline.commands.agent.claim-grace); once it lapses another key may
-- claim the job, and until then the lapsed holder's acknowledgements still count. Released by the agent when it
-- exits, or by an operator. Rows lapsed longer than lifeline.commands.agent.retention are deleted.
CREATE TABLE agent_claim (
    job         TEXT        PRIMARY KEY,
    key_sha256  TEXT        NOT NULL,
    holder      TEXT        NOT NULL,
    claimed_at  TIMESTAMPTZ NOT NULL,
    seen_at     TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);

-- The key a command was last delivered to: a new claimer gets the command at once, not after redeliver-after.
ALTER TABLE agent_command ADD COLUMN delivered_to TEXT;
