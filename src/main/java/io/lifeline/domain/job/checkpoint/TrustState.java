package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/** One checkpoint's trust as its events and an operator made it; only its {@link CheckpointEntry} changes it. */
final class TrustState {

    private String loss;
    private SuspectReason lossReason;
    private String lossDetail;
    private Boolean marked;
    private String markReason;
    private String markedBy;
    private Instant markedAt;

    /** The loss when the save began, judged once (a resent start does not judge again against a newer window). */
    void judged(Double at, LossWindow.Verdict v) {
        if (loss != null || at == null) {
            return;
        }
        loss = CheckpointTrust.lossText(at);
        lossReason = v == null ? null : v.reason();
        lossDetail = v == null ? null : v.detail();
    }

    void mark(boolean trusted, String reason, String by, Instant at) {
        marked = trusted;
        markReason = reason;
        markedBy = by;
        markedAt = at;
    }

    SavedTrust save() {
        if (loss == null && marked == null) {
            return null;
        }
        return new SavedTrust(loss, lossReason, lossDetail, marked, markReason, markedBy, markedAt);
    }

    static TrustState restore(SavedTrust s) {
        TrustState t = new TrustState();
        if (s != null) {
            t.loss = s.loss();
            t.lossReason = s.lossReason();
            t.lossDetail = s.lossDetail();
            t.marked = s.marked();
            t.markReason = s.markReason();
            t.markedBy = s.markedBy();
            t.markedAt = s.markedAt();
        }
        return t;
    }

    /**
     * The verdict for a checkpoint in {@code status} of a job that does ({@code verifies}) or does not verify its
     * checkpoints; null while it is not complete (started or failed: nothing to restore).
     */
    CheckpointTrust view(CheckpointStatus status, boolean verifies) {
        if (marked != null) {
            return new CheckpointTrust(
                    marked, marked ? null : SuspectReason.MARKED.wire(), markReason, loss, markedBy, markedAt);
        }
        switch (status) {
            case CORRUPT:
                return suspect(SuspectReason.CORRUPT, "verification found it corrupt");
            case COMPLETED:
            case VERIFIED:
                break;
            default:
                return null;
        }
        if (lossReason != null) {
            return suspect(lossReason, lossDetail);
        }
        if (verifies && status != CheckpointStatus.VERIFIED) {
            return suspect(SuspectReason.UNVERIFIED, "not verified, while the job verifies its checkpoints");
        }
        return new CheckpointTrust(true, null, null, loss, null, null);
    }

    private CheckpointTrust suspect(SuspectReason r, String detail) {
        return new CheckpointTrust(false, r.wire(), detail, loss, null, null);
    }
}
