package io.lifeline.domain.job.hang;

import io.lifeline.domain.event.JobData.HangSuspect;
import java.time.Instant;
import java.util.List;

/**
 * Whether a job is hung, as judged now.
 *
 * @param state             {@code ok}, a suspicion ({@code "suspected"}), {@code unknown} (no rank reports: Lifeline or the agents'
 *                          senders cut off, which is not a hang) or {@code not-applicable} (the job is not training)
 * @param kind              for a suspicion: {@code training}, {@code save}, {@code phase} or {@code startup}; else null
 * @param phase             the phase most ranks are in, or null
 * @param stalledSeconds    how long every reporting rank has gone without progress
 * @param thresholdSeconds  the threshold that applies (the longest of the ranks' phases)
 * @param basis             how the threshold was earned
 * @param since             the last progress, or null
 * @param ranksReporting    ranks whose heartbeats arrive
 * @param suspects          ranks that stopped first or differ from the others
 * @param silentRanks       ranks that reported once but no longer do
 * @param evidence          what else was seen, one line each
 * @param detail            the verdict in one sentence
 */
public record HangVerdict(
        String state,
        String kind,
        String phase,
        double stalledSeconds,
        double thresholdSeconds,
        String basis,
        Instant since,
        int ranksReporting,
        List<HangSuspect> suspects,
        List<Integer> silentRanks,
        List<String> evidence,
        String detail) {

    public static final String OK = "ok";
    public static final String SUSPECTED = "suspected";
    public static final String UNKNOWN = "unknown";
    public static final String NOT_APPLICABLE = "not-applicable";

    public HangVerdict {
        suspects = List.copyOf(suspects);
        silentRanks = List.copyOf(silentRanks);
        evidence = List.copyOf(evidence);
    }

    /** A verdict with nothing to judge. */
    public static HangVerdict of(String state, String detail) {
        return new HangVerdict(state, null, null, 0, 0, null, null, 0, List.of(), List.of(), List.of(), detail);
    }

    public boolean suspected() {
        return SUSPECTED.equals(state);
    }

    /** The same verdict with more evidence. */
    public HangVerdict withEvidence(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(evidence);
        all.addAll(more);
        return new HangVerdict(
                state,
                kind,
                phase,
                stalledSeconds,
                thresholdSeconds,
                basis,
                since,
                ranksReporting,
                suspects,
                silentRanks,
                all,
                detail);
    }
}
