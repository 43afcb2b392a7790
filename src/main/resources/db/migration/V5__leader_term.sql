-- The fencing token of the replica that leads: incremented each time a replica becomes leader, so that work stamped
-- with an older term can be recognised as coming from a leader that has since been replaced.
CREATE TABLE leader_term (
    name text PRIMARY KEY,
    term bigint NOT NULL
);
