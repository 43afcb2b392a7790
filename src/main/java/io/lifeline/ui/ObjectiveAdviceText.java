package io.lifeline.ui;

import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.ObjectiveAdvice;

/** The job page's sentence on which checkpoint intervals keep a job inside its ETTR objective. */
final class ObjectiveAdviceText {

    private ObjectiveAdviceText() {}

    /** The sentence for the advice's objective, or null when the job is under none. */
    static String of(IntervalAdvice a) {
        ObjectiveAdvice o = a.objective();
        if (o == null) {
            return null;
        }
        String head = "Objective: ETTR ≥ " + Format.percent(o.ettrTarget()) + ". ";
        if (o.reachable() == null) {
            return head + "Which intervals keep the job inside it is known once C and M are measured.";
        }
        String now = "expected ETTR " + Format.percent(a.expectedEttrCurrent()) + " now" + meets(o.currentMeets())
                + ", " + Format.percent(a.expectedEttrRecommended()) + " at the recommended interval"
                + meets(o.recommendedMeets());
        if (o.reachable()) {
            return head + "Intervals from " + Format.seconds(o.lowestSeconds()) + " to "
                    + Format.seconds(o.highestSeconds())
                    + " keep the job inside it at the observed interruption rate (" + now + ").";
        }
        return head + "No interval keeps the job inside it at the observed interruption rate: the best is "
                + Format.percent(o.bestEttr()) + " at " + Format.seconds(o.bestSeconds()) + " (" + now + ").";
    }

    private static String meets(Boolean meets) {
        return meets == null ? "" : meets ? " (meets it)" : " (short of it)";
    }
}
