-- The poll that last kept a claim. When that poll's connection closes before it is answered (its agent exited or
-- was restarted: torchrun moves rank 0 to another node on a restart), the claim lapses
-- lifeline.commands.agent.claim-grace-disconnected after the close instead of its full wait and grace, so the agent
-- that polls next (with the new rank 0's key) is not refused for a minute. Matching the poll keeps a newer poll of
-- the same key (one key given to all of a job's pods) from being cut short by an older poll's close.
ALTER TABLE agent_claim ADD COLUMN poll_id TEXT;
