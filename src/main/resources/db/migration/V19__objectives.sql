-- Goodput objectives set through the API (PUT /api/v1/objectives). One row holds the whole set: once it exists, it
-- replaces the objectives of the configuration (lifeline.objectives.objective.*), so that removing the last one
-- through the API is kept too.
CREATE TABLE objective_set (
    id          INT PRIMARY KEY CHECK (id = 1),
    objectives  JSONB NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    updated_by  TEXT NOT NULL
);
