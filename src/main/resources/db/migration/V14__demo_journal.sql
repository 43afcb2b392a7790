-- The demo fleet's journal (docs/demo.md): what a restart of the quick start needs to continue the simulated fleet
-- where the stored history left it instead of starting it again. The simulator is deterministic: its scenario, its
-- simulated start and the calls made on it (Lifeline's commands and cluster actions, in order, at the simulated time
-- each was made) rebuild it exactly; settled counts its events that reached ingest, through is the simulated time
-- they reached, last_event describes the last of them so a rebuild can be checked.
CREATE TABLE demo_run (
    id         SMALLINT    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    scenario   TEXT        NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    settled    BIGINT,
    through    TIMESTAMPTZ,
    last_event TEXT
);

CREATE TABLE demo_call (
    seq  BIGINT      PRIMARY KEY,
    at   TIMESTAMPTZ NOT NULL,
    op   TEXT        NOT NULL,
    args TEXT[]      NOT NULL
);
