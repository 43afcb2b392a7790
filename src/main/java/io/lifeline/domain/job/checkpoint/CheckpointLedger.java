package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.event.TrainerData.CheckpointCompleted;
import io.lifeline.domain.event.TrainerData.CheckpointFailed;
import io.lifeline.domain.event.TrainerData.CheckpointStarted;
import io.lifeline.domain.event.TrainerData.CheckpointVerified;
import io.lifeline.domain.event.TrainerData.Restored;
import io.lifeline.domain.job.goodput.ProductiveMark;
import io.lifeline.domain.job.history.HistorySlice.Ordered;
import io.lifeline.domain.job.support.Ring;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * One job's checkpoints (the newest ones, bounded), the restores, and the lineage that links them.
 *
 * <p>A checkpoint is <em>good</em> (a restore point) when complete and, once the job has been seen to
 * verify checkpoints, verified. The ledger also keeps lineage epochs: each restore starts a new epoch,
 * and only checkpoints captured in the current epoch protect the current run's progress.
 */
public final class CheckpointLedger {

    private final Map<String, CheckpointEntry> entries;
    private final Ring<RestoreView> restores;
    private final int maxCheckpoints;
    /** Checkpoints changed since {@link #drainChanged()} last handed them over, in order of change (bounded). */
    private final LinkedHashSet<CheckpointEntry> changed = new LinkedHashSet<>();

    private long created;
    private boolean verifies;
    private CheckpointEntry newestGood;
    private String lineageParent;
    private int epoch;
    private ProductiveMark epochBase = ProductiveMark.ZERO;
    /**
     * The last {@link #history} given, until anything it shows changes: the model's snapshot asks every job for it
     * every second, and most jobs' checkpoints change far less often.
     */
    private CheckpointHistory history;

    public CheckpointLedger(int maxCheckpoints, int maxRestores) {
        this.entries = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CheckpointEntry> eldest) {
                return size() > maxCheckpoints;
            }
        };
        this.restores = new Ring<>(maxRestores);
        this.maxCheckpoints = maxCheckpoints;
    }

    /** The ledger's state as plain values. */
    public SavedCheckpoints save() {
        List<SavedCheckpoint> held = new ArrayList<>(entries.size());
        for (CheckpointEntry e : entries.values()) {
            held.add(e.save());
        }
        List<String> pending = new ArrayList<>(changed.size());
        for (CheckpointEntry e : changed) {
            // A changed checkpoint that already left the ledger is not carried: only what memory holds is.
            if (entries.get(e.id()) == e) {
                pending.add(e.id());
            }
        }
        return new SavedCheckpoints(
                held, restores.toList(), pending, created, verifies, lineageParent, epoch, epochBase);
    }

    /** A ledger in the state {@link #save()} gave, with these bounds. */
    public static CheckpointLedger restore(SavedCheckpoints s, int maxCheckpoints, int maxRestores) {
        CheckpointLedger l = new CheckpointLedger(maxCheckpoints, maxRestores);
        for (SavedCheckpoint c : s.entries()) {
            l.entries.put(c.id(), CheckpointEntry.restore(c));
        }
        s.restores().forEach(l.restores::add);
        for (String id : s.changed()) {
            CheckpointEntry e = l.entries.get(id);
            if (e != null) {
                l.changed(e);
            }
        }
        l.created = s.created();
        l.verifies = s.verifies();
        l.lineageParent = s.lineageParent();
        l.epoch = s.epoch();
        l.epochBase = s.epochBase();
        l.refresh();
        return l;
    }

    private CheckpointEntry entry(String id, long step) {
        CheckpointEntry e =
                entries.computeIfAbsent(id, k -> new CheckpointEntry(k, ++created, step, epoch, lineageParent));
        changed(e);
        return e;
    }

    private void changed(CheckpointEntry e) {
        history = null;
        changed.remove(e);
        changed.add(e);
        if (changed.size() > maxCheckpoints) {
            changed.remove(changed.iterator().next());
        }
    }

    /**
     * A node is gone, and with it the copies on its disk: a replicated checkpoint keeps the copies on its other
     * holders (node-local on the one left, replicated on two or more); a node-local one it held is lost (it was on that
     * node, or in pieces on each of its holders). Bounded by the checkpoints in memory.
     */
    public void nodeLost(String node) {
        for (CheckpointEntry e : entries.values()) {
            Durability d = e.durability();
            if ((d != Durability.REPLICATED && d != Durability.NODE_LOCAL)
                    || !e.holders().contains(node)) {
                continue;
            }
            List<String> left = new ArrayList<>(e.holders());
            left.remove(node);
            if (d == Durability.NODE_LOCAL) {
                left.clear();
            }
            e.placed(new CheckpointStorage.Placement(
                    left.size() >= 2 ? Durability.REPLICATED : Durability.NODE_LOCAL, left));
            changed(e);
        }
    }

    /** Whether checkpoints changed since the last {@link #drainChanged()}. */
    public boolean hasChanged() {
        return !changed.isEmpty();
    }

    /**
     * The checkpoints changed since the previous call, as they stand now, in order of change. If nobody calls it,
     * only the last {@code maxCheckpoints} changes are kept.
     */
    public List<Ordered<CheckpointView>> drainChanged() {
        List<Ordered<CheckpointView>> out = new ArrayList<>(changed.size());
        for (CheckpointEntry e : changed) {
            out.add(new Ordered<>(e.ordinal(), e.view(isGood(e), verifies)));
        }
        changed.clear();
        return out;
    }

    /** The checkpoints in memory, oldest first, with their ordinals. */
    public List<Ordered<CheckpointView>> ordered() {
        List<Ordered<CheckpointView>> out = new ArrayList<>(entries.size());
        for (CheckpointEntry e : entries.values()) {
            out.add(new Ordered<>(e.ordinal(), e.view(isGood(e), verifies)));
        }
        return out;
    }

    /** How many checkpoints the ledger has seen, which is the ordinal of the newest. */
    public long created() {
        return created;
    }

    /**
     * A save began; {@code mark} is the productive time captured (the state being saved), {@code verdict} what the loss
     * it names makes it (null: nothing).
     */
    public CheckpointEntry started(CheckpointStarted d, Instant at, ProductiveMark mark, LossWindow.Verdict verdict) {
        CheckpointEntry e = entry(d.checkpointId(), d.step());
        e.judged(d.loss(), verdict);
        e.started(at, d.async(), d.reason());
        if (e.mark() == null) {
            e.mark(mark, epoch);
        }
        refresh();
        return e;
    }

    /** A save began, with no loss judged. */
    public CheckpointEntry started(CheckpointStarted d, Instant at, ProductiveMark mark) {
        return started(d, at, mark, null);
    }

    /**
     * An operator marked checkpoint {@code id} trusted or suspect.
     *
     * @return the checkpoint, or null when the ledger does not hold it
     */
    public CheckpointEntry markTrust(String id, boolean trusted, String why, String by, Instant at) {
        CheckpointEntry e = find(id);
        if (e != null) {
            e.markTrust(trusted, why, by, at);
            changed(e);
        }
        return e;
    }

    /**
     * A save completed, stored as {@code placed} says. The caller sets the mark when the start was not seen
     * ({@link #capture}).
     */
    public CheckpointEntry completed(CheckpointCompleted d, Instant at, CheckpointStorage.Placement placed) {
        CheckpointEntry e = entry(d.checkpointId(), d.step());
        e.step(d.step());
        e.completed(
                at,
                d.async(),
                d.bytes(),
                seconds(d.durationSeconds()),
                seconds(d.blockingSeconds()),
                d.uri(),
                d.checksum(),
                d.shards(),
                d.worldSize());
        e.placed(placed);
        e.status(CheckpointStatus.COMPLETED);
        refresh();
        return e;
    }

    /** Sets the captured productive time of a checkpoint whose start was not seen. */
    public void capture(CheckpointEntry e, ProductiveMark mark) {
        if (e.mark() == null) {
            e.mark(mark, epoch);
            changed(e);
            refresh();
        }
    }

    public CheckpointEntry failed(CheckpointFailed d, Instant at) {
        CheckpointEntry e = entry(d.checkpointId(), d.step());
        e.failed(at, SaveFailure.describe(d));
        e.status(CheckpointStatus.FAILED);
        refresh();
        return e;
    }

    /** A verification: from now on the job counts only verified checkpoints as good. */
    public CheckpointEntry verified(CheckpointVerified d, Instant at) {
        if (!verifies) {
            // From now on only verified checkpoints are good: every one held changes.
            entries.values().forEach(this::changed);
        }
        verifies = true;
        CheckpointEntry e = entries.get(d.checkpointId());
        if (e == null) {
            e = entry(d.checkpointId(), 0);
        }
        e.verified(at, d.checksum());
        e.status(d.ok() ? CheckpointStatus.VERIFIED : CheckpointStatus.CORRUPT);
        refresh();
        return e;
    }

    /**
     * A run resumed from a checkpoint: records the restore and makes that checkpoint the lineage parent.
     *
     * @return the restored checkpoint, or null when it is not in the history (or the run started from scratch)
     */
    public CheckpointEntry restored(Restored d, Instant at, String incidentId) {
        String id = d.checkpointId();
        CheckpointEntry e = id == null || id.isEmpty() ? null : entries.get(id);
        if (e != null) {
            e.restoredOnce();
            changed(e);
        }
        restores.add(new RestoreView(at, id, d.step(), d.runId(), incidentId, e != null));
        lineageParent = id == null || id.isEmpty() ? null : id;
        history = null;
        return e;
    }

    /** Starts a new lineage epoch: the run now continues from {@code base} (productive time it keeps). */
    public void beginEpoch(ProductiveMark base) {
        epoch++;
        epochBase = base;
    }

    /** Moves the current epoch's start (the lost work of the stop that began it was re-measured). */
    public void rebaseEpoch(ProductiveMark base) {
        epochBase = base;
    }

    /** The checkpoint the current run restored from, or null. */
    public String lineageParent() {
        return lineageParent;
    }

    public int epoch() {
        return epoch;
    }

    /**
     * The productive time the current run would keep if interrupted now: the newest good checkpoint
     * captured in this epoch, else the epoch's start, never more than {@code now}.
     */
    public ProductiveMark protectedMark(ProductiveMark now) {
        ProductiveMark best = epochBase;
        for (CheckpointEntry e : entries.values()) {
            if (e.epoch() == epoch && e.mark() != null && isGood(e)) {
                best = e.mark().max(best);
            }
        }
        return best.millis() > now.millis() ? now : best;
    }

    /** The good checkpoint captured in this epoch that {@link #protectedMark} stands on, or null. */
    public CheckpointEntry protectingCheckpoint() {
        CheckpointEntry best = null;
        for (CheckpointEntry e : entries.values()) {
            if (e.epoch() == epoch
                    && e.mark() != null
                    && isGood(e)
                    && (best == null || e.mark().millis() >= best.mark().millis())) {
                best = e;
            }
        }
        return best != null && best.mark().millis() >= epochBase.millis() ? best : null;
    }

    public boolean isGood(CheckpointEntry e) {
        CheckpointStatus s = e.status();
        return verifies
                ? s == CheckpointStatus.VERIFIED
                : s == CheckpointStatus.COMPLETED || s == CheckpointStatus.VERIFIED;
    }

    private void refresh() {
        history = null;
        CheckpointEntry best = null;
        for (CheckpointEntry e : entries.values()) {
            if (isGood(e)
                    && e.completedAt() != null
                    && (best == null || !e.completedAt().isBefore(best.completedAt()))) {
                best = e;
            }
        }
        newestGood = best;
    }

    /** The good checkpoint that completed last, or null. */
    public CheckpointEntry newestGood() {
        return newestGood;
    }

    /** The good checkpoint that completed last among those {@code keep} accepts (for example: that survive a node). */
    public CheckpointEntry newestGood(java.util.function.Predicate<CheckpointEntry> keep) {
        if (newestGood == null || keep.test(newestGood)) {
            return newestGood;
        }
        CheckpointEntry best = null;
        for (CheckpointEntry e : entries.values()) {
            if (isGood(e)
                    && e.completedAt() != null
                    && keep.test(e)
                    && (best == null || !e.completedAt().isBefore(best.completedAt()))) {
                best = e;
            }
        }
        return best;
    }

    public CheckpointEntry find(String id) {
        return id == null ? null : entries.get(id);
    }

    public boolean verifies() {
        return verifies;
    }

    /** Blocking save times of the most recent completed checkpoints (up to {@code recent}), oldest first. */
    public List<Long> recentBlockingMillis(int recent) {
        List<Long> all = new ArrayList<>();
        for (CheckpointEntry e : entries.values()) {
            if (e.blockingMillis() != null && e.status().ordinal() >= CheckpointStatus.COMPLETED.ordinal()) {
                all.add(e.blockingMillis());
            }
        }
        return all.subList(Math.max(0, all.size() - recent), all.size());
    }

    /** Gaps between the completion times of consecutive good checkpoints (up to {@code recent}), oldest first. */
    public List<Long> recentIntervalsMillis(int recent) {
        List<Instant> done = new ArrayList<>();
        for (CheckpointEntry e : entries.values()) {
            if (isGood(e) && e.completedAt() != null) {
                done.add(e.completedAt());
            }
        }
        done.sort(null);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < done.size(); i++) {
            gaps.add(done.get(i).toEpochMilli() - done.get(i - 1).toEpochMilli());
        }
        return gaps.subList(Math.max(0, gaps.size() - recent), gaps.size());
    }

    /** The checkpoints held and the restores, as immutable views (the same instance while nothing changed). */
    public CheckpointHistory history(String job) {
        CheckpointHistory h = history;
        if (h == null || !h.job().equals(job)) {
            h = takeHistory(job);
            history = h;
        }
        return h;
    }

    private CheckpointHistory takeHistory(String job) {
        List<CheckpointView> list = new ArrayList<>(entries.size());
        for (CheckpointEntry e : entries.values()) {
            list.add(e.view(isGood(e), verifies));
        }
        return new CheckpointHistory(
                job,
                verifies,
                newestGood == null ? null : newestGood.id(),
                lineageParent,
                List.copyOf(list),
                restores.toList());
    }

    private static long seconds(double s) {
        return Math.round(s * 1000.0);
    }
}
