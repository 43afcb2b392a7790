package io.lifeline.domain.storage;

import io.lifeline.domain.storage.SavedStorage.Save;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One job's checkpoints on one target: the sizes it keeps (its newest {@code retention}), its recent saves and the
 * free space it last read there. Bounded by the retention and the sample count, whatever the job's length.
 */
final class JobWrites {

    final String job;
    final String namespace;
    private final ArrayDeque<Long> kept = new ArrayDeque<>();
    private final ArrayDeque<Save> saves = new ArrayDeque<>();
    private long keptBytes;
    private long lastSaveMillis = Long.MIN_VALUE;
    private boolean finished;
    private Long freeBytes;
    private Long capacityBytes;
    private long reportedAtMillis;
    private long targetKeptAtReport;

    JobWrites(String job, String namespace) {
        this.job = job;
        this.namespace = namespace;
    }

    /** A save completed; returns the bytes it added to the target net of the checkpoint it rotated out. */
    long completed(long atMillis, Long bytes, double durationSeconds, int retention, int samples) {
        finished = false;
        lastSaveMillis = Math.max(lastSaveMillis, atMillis);
        if (bytes == null) {
            // Its size is unknown: it still tells the job's interval, with nothing kept or written to count.
            add(new Save(atMillis, 0, null, 0), samples);
            return 0;
        }
        kept.addLast(bytes);
        long removed = 0;
        while (kept.size() > retention) {
            removed += kept.pollFirst();
        }
        long net = bytes - removed;
        keptBytes += net;
        Double bandwidth = durationSeconds > 0 && bytes > 0 ? bytes / durationSeconds : null;
        add(new Save(atMillis, bytes, bandwidth, net), samples);
        return net;
    }

    private void add(Save s, int samples) {
        saves.addLast(s);
        while (saves.size() > samples) {
            saves.pollFirst();
        }
    }

    /** The trainers read the target's free space; {@code targetKept} is what the target keeps now. */
    void reported(long atMillis, Long free, Long capacity, long targetKept) {
        if (free == null && capacity == null || atMillis < reportedAtMillis) {
            return;
        }
        if (free != null) {
            freeBytes = free;
            targetKeptAtReport = targetKept;
        }
        if (capacity != null) {
            capacityBytes = capacity;
        }
        reportedAtMillis = atMillis;
    }

    void finished() {
        finished = true;
    }

    long keptBytes() {
        return keptBytes;
    }

    int keptCount() {
        return kept.size();
    }

    long lastSaveMillis() {
        return lastSaveMillis;
    }

    Long freeBytes() {
        return freeBytes;
    }

    Long capacityBytes() {
        return capacityBytes;
    }

    long reportedAtMillis() {
        return reportedAtMillis;
    }

    long targetKeptAtReport() {
        return targetKeptAtReport;
    }

    List<Save> saves() {
        return List.copyOf(saves);
    }

    /** Median gap between the recent saves in seconds, or null with fewer than two. */
    Double intervalSeconds() {
        List<Long> times = new ArrayList<>(saves.size());
        saves.forEach(s -> times.add(s.atMillis()));
        times.sort(null);
        List<Double> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add((times.get(i) - times.get(i - 1)) / 1000.0);
        }
        return gaps.isEmpty() ? null : Stats.median(gaps);
    }

    /** Median size of the recent saves whose size is known, or null. */
    Double bytesPerCheckpoint() {
        List<Double> sizes = new ArrayList<>();
        saves.forEach(s -> {
            if (s.bytes() > 0) {
                sizes.add((double) s.bytes());
            }
        });
        return sizes.isEmpty() ? null : Stats.median(sizes);
    }

    /** The largest recent save, 0 when none had a size. */
    long largestBytes() {
        long max = 0;
        for (Save s : saves) {
            max = Math.max(max, s.bytes());
        }
        return max;
    }

    /**
     * Whether the job still writes here: not finished, and its last save no older than {@code idleAfter} or three of
     * its intervals, whichever is longer.
     */
    boolean writing(long nowMillis, long idleAfterMillis) {
        if (finished || lastSaveMillis == Long.MIN_VALUE) {
            return false;
        }
        Double gap = intervalSeconds();
        long patience = Math.max(idleAfterMillis, gap == null ? 0 : Math.round(3 * gap * 1000));
        return nowMillis - lastSaveMillis <= patience;
    }

    /**
     * Bytes the job adds to the target per second, net of retention: what the saves after the first of the recent
     * ones added, over the time they span. Null with fewer than two saves or no time between them.
     */
    Double netBytesPerSecond() {
        if (saves.size() < 2) {
            return null;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Save s : saves) {
            first = Math.min(first, s.atMillis());
            last = Math.max(last, s.atMillis());
        }
        if (last <= first) {
            return null;
        }
        long added = 0;
        boolean skipped = false;
        for (Save s : saves) {
            if (!skipped && s.atMillis() == first) {
                skipped = true;
                continue;
            }
            added += s.netAdded();
        }
        return added / ((last - first) / 1000.0);
    }

    /** Its state as plain values. */
    SavedStorage.Writer save(String target) {
        return new SavedStorage.Writer(
                target,
                job,
                namespace,
                List.copyOf(kept),
                saves(),
                lastSaveMillis,
                finished,
                freeBytes,
                capacityBytes,
                reportedAtMillis,
                targetKeptAtReport);
    }

    static JobWrites restore(SavedStorage.Writer w) {
        JobWrites j = new JobWrites(w.job(), w.namespace());
        for (Long k : w.kept()) {
            j.kept.addLast(k);
            j.keptBytes += k;
        }
        j.saves.addAll(w.saves());
        j.lastSaveMillis = w.lastSaveMillis();
        j.finished = w.finished();
        j.freeBytes = w.freeBytes();
        j.capacityBytes = w.capacityBytes();
        j.reportedAtMillis = w.reportedAtMillis();
        j.targetKeptAtReport = w.targetKeptAtReport();
        return j;
    }
}
