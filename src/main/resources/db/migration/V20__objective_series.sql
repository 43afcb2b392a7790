-- The goodput objectives' series (minute and hour slots of GPU time), saved every few minutes and at shutdown so that
-- a restart does not start every objective's window again. One row; the state is what ObjectiveBook.save() gives.
CREATE TABLE objective_series (
    id        INT PRIMARY KEY CHECK (id = 1),
    state     JSONB NOT NULL,
    saved_at  TIMESTAMPTZ NOT NULL
);
