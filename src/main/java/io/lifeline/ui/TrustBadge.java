package io.lifeline.ui;

import com.vaadin.flow.component.Component;
import io.lifeline.domain.job.checkpoint.CheckpointTrust;
import io.lifeline.domain.job.checkpoint.CheckpointView;

/**
 * A checkpoint's trust in the job page's lineage: trusted, or suspect with the reason (the detail as a tooltip); a save
 * refused for space says so with its numbers.
 */
final class TrustBadge {

    private TrustBadge() {}

    static Component of(CheckpointView c) {
        CheckpointTrust t = c.trust();
        if (t == null) {
            String error = c.error();
            if (error != null && error.startsWith("no_space")) {
                Component b = Ui.badge(error.length() > 80 ? error.substring(0, 80) + "…" : error, "error");
                b.getElement().setAttribute("title", error);
                return b;
            }
            return Ui.badge("—", "contrast");
        }
        Component b = t.trusted()
                ? Ui.badge(t.markedBy() == null ? "trusted" : "trusted (marked)", "success")
                : Ui.badge("suspect: " + t.reason(), "error");
        String tip = (t.detail() == null ? "" : t.detail())
                + (t.loss() == null ? "" : (t.detail() == null ? "" : "; ") + "loss " + t.loss())
                + (t.markedBy() == null ? "" : "; marked by " + t.markedBy());
        if (!tip.isEmpty()) {
            b.getElement().setAttribute("title", tip);
        }
        return b;
    }
}
