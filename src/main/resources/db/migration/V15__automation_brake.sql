-- The automation brake (domain.policy.AutomationBrake.State as JSON): one row that every replica shares. The leader
-- updates it under the row's lock with each policy decision that would take a node out of service; any replica
-- writes it when a person resets the brake; every replica reads it for its views, metrics and alert rule.
CREATE TABLE automation_brake (
    id         SMALLINT    PRIMARY KEY CHECK (id = 1),
    state      JSONB       NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

INSERT INTO automation_brake (id, state, updated_at) VALUES (1, '{}'::jsonb, now());
