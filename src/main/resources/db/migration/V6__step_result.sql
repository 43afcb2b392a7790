-- What a step produced that later steps need (for example the checkpoint baseline of a checkpoint request), as
-- typed JSON, read back typed after a restart instead of being parsed out of the human-readable detail.
ALTER TABLE action_step ADD COLUMN result jsonb;
