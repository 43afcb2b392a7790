package io.lifeline.domain.action;

import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointTrust;
import io.lifeline.domain.job.checkpoint.CheckpointView;

/**
 * Which checkpoint a {@code restore} restores: the one named, when it is complete (and, unless {@code allowSuspect},
 * trusted); else the newest trusted complete checkpoint of the job (the newest complete one, suspect or not, with
 * {@code allowSuspect}).
 *
 * @param checkpointId  the checkpoint chosen, or null when refused
 * @param field         the parameter a refusal is about
 * @param refusal       why none can be restored, or null
 */
record RestoreChoice(String checkpointId, String field, String refusal) {

    static RestoreChoice of(String job, CheckpointHistory history, String named, boolean allowSuspect) {
        if (named == null || named.isEmpty()) {
            return newest(job, history, allowSuspect);
        }
        CheckpointView cp = history == null
                ? null
                : history.checkpoints().stream()
                        .filter(c -> c.id().equals(named))
                        .findFirst()
                        .orElse(null);
        if (cp == null) {
            return refused("params.checkpointId", "job " + job + " has no checkpoint " + named);
        }
        if (!complete(cp)) {
            return refused(
                    "params.checkpointId",
                    "checkpoint " + named + " is " + cp.status() + ": only a complete checkpoint can be restored");
        }
        if (!allowSuspect && !cp.trusted()) {
            CheckpointTrust t = cp.trust();
            return refused(
                    "params.checkpointId",
                    "checkpoint " + named + " is suspect (" + (t == null ? "no verdict" : t.reason())
                            + (t == null || t.detail() == null ? "" : ": " + t.detail())
                            + "); restore it anyway with params.allowSuspect=true");
        }
        return new RestoreChoice(named, null, null);
    }

    private static RestoreChoice newest(String job, CheckpointHistory history, boolean allowSuspect) {
        CheckpointView best = null;
        int suspects = 0;
        if (history != null) {
            for (CheckpointView c : history.checkpoints()) {
                if (!complete(c)) {
                    continue;
                }
                if (!allowSuspect && !c.trusted()) {
                    suspects++;
                    continue;
                }
                if (best == null || c.step() >= best.step()) {
                    best = c;
                }
            }
        }
        if (best == null) {
            return refused(
                    "params.checkpointId",
                    "job " + job + " has no " + (allowSuspect ? "complete" : "trusted") + " checkpoint"
                            + (suspects > 0 ? " (" + suspects + " suspect: params.allowSuspect=true takes them)" : ""));
        }
        return new RestoreChoice(best.id(), null, null);
    }

    private static boolean complete(CheckpointView c) {
        return c.status() == CheckpointStatus.COMPLETED || c.status() == CheckpointStatus.VERIFIED;
    }

    private static RestoreChoice refused(String field, String why) {
        return new RestoreChoice(null, field, why);
    }
}
