-- An ingest token may be bound to nodes (a node agent's: it sends node and GPU events of those nodes only) and to
-- CloudEvents sources (a connector's: it sends events of those sources only). Empty: not bound.
ALTER TABLE api_token ADD COLUMN nodes TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE api_token ADD COLUMN sources TEXT[] NOT NULL DEFAULT '{}';
