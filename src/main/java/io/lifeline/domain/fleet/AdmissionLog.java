package io.lifeline.domain.fleet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods a node's kubelet rejected at admission or device allocation, bounded whatever the rate: the newest
 * {@link #KEPT} (time, pod, reason) in a ring, the newest message, and a count per UTC day over the longest reliability
 * window. A node that swallows pods at hundreds an hour keeps the same few kilobytes as one that rejected two.
 */
final class AdmissionLog {

    /** Rejections remembered one by one per node: the most any suspect threshold may ask for. */
    static final int KEPT = 32;
    /** Days counted per node: the longest reliability window. */
    static final int DAYS = 90;

    private static final long DAY = 86_400_000L;

    private final long[] times = new long[KEPT];
    private final String[] pods = new String[KEPT];
    private final String[] reasons = new String[KEPT];
    private int next;
    private int size;
    private String lastMessage;
    private final int[] dayOf = new int[DAYS];
    private final int[] dayCount = new int[DAYS];
    private long total;

    /** Records one rejection ({@code reason} interned by the caller). */
    void add(long millis, String pod, String reason, String message) {
        times[next] = millis;
        pods[next] = pod;
        reasons[next] = reason;
        next = (next + 1) % KEPT;
        size = Math.min(size + 1, KEPT);
        if (millis >= newest()) {
            lastMessage = message;
        }
        int day = (int) Math.floorDiv(millis, DAY);
        int slot = Math.floorMod(day, DAYS);
        if (dayOf[slot] != day) {
            if (dayOf[slot] > day && dayCount[slot] > 0) {
                // A day older than the one this slot now counts is beyond every window: only the total keeps it.
                total++;
                return;
            }
            dayOf[slot] = day;
            dayCount[slot] = 0;
        }
        dayCount[slot]++;
        total++;
    }

    /** Rejections counted on the UTC days {@code fromDay..toDay} (epoch days, at most {@link #DAYS} back). */
    long countDays(long fromDay, long toDay) {
        long n = 0;
        for (int i = 0; i < DAYS; i++) {
            if (dayCount[i] > 0 && dayOf[i] >= fromDay && dayOf[i] <= toDay) {
                n += dayCount[i];
            }
        }
        return n;
    }

    /** Every rejection recorded for the node. */
    long total() {
        return total;
    }

    /** The remembered rejections at or after {@code from} and at or before {@code to}, oldest first. */
    List<AdmissionFailure> between(long from, long to) {
        List<AdmissionFailure> out = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            int i = Math.floorMod(next - size + k, KEPT);
            if (times[i] >= from && times[i] <= to) {
                out.add(new AdmissionFailure(Instant.ofEpochMilli(times[i]), pods[i], reasons[i]));
            }
        }
        out.sort(java.util.Comparator.comparing(AdmissionFailure::time));
        return out;
    }

    /** The newest rejection's time, {@link Long#MIN_VALUE} when none. */
    long newest() {
        long max = Long.MIN_VALUE;
        for (int k = 0; k < size; k++) {
            max = Math.max(max, times[k]);
        }
        return max;
    }

    String lastMessage() {
        return lastMessage;
    }

    /** As plain values, for a checkpoint of the model (ring oldest first). */
    SavedAdmissions save() {
        List<Long> t = new ArrayList<>();
        List<String> p = new ArrayList<>();
        List<String> r = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            int i = Math.floorMod(next - size + k, KEPT);
            t.add(times[i]);
            p.add(pods[i]);
            r.add(reasons[i]);
        }
        List<Integer> days = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (int i = 0; i < DAYS; i++) {
            if (dayCount[i] > 0) {
                days.add(dayOf[i]);
                counts.add(dayCount[i]);
            }
        }
        return new SavedAdmissions(t, p, r, lastMessage, days, counts, total);
    }

    static AdmissionLog restore(SavedAdmissions s, StringPool strings) {
        AdmissionLog log = new AdmissionLog();
        int n = Math.min(s.times().size(), KEPT);
        int skip = s.times().size() - n;
        for (int k = 0; k < n; k++) {
            log.times[k] = s.times().get(skip + k);
            log.pods[k] = s.pods().get(skip + k);
            log.reasons[k] = strings.intern(s.reasons().get(skip + k));
        }
        log.size = n;
        log.next = n % KEPT;
        log.lastMessage = s.lastMessage();
        for (int k = 0; k < s.days().size(); k++) {
            int day = s.days().get(k);
            int slot = Math.floorMod(day, DAYS);
            log.dayOf[slot] = day;
            log.dayCount[slot] = s.counts().get(k);
        }
        log.total = s.total();
        return log;
    }
}
