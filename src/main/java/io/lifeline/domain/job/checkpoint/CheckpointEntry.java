package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.List;

/**
 * The state of one checkpoint, built from its events in any order. Only the {@link CheckpointLedger}
 * changes it; the rest of the model reads it.
 */
public final class CheckpointEntry {

    private final String id;
    private final long ordinal;
    private long step;
    private CheckpointStatus status = CheckpointStatus.STARTED;
    private int epoch;
    private ProductiveMark mark;
    private String restoredFrom;
    private TrustState trust = new TrustState();
    private Instant startedAt;
    private Instant completedAt;
    private Instant failedAt;
    private Instant verifiedAt;
    private boolean async;
    private Long bytes;
    private Long durationMillis;
    private Long blockingMillis;
    private String uri;
    private String checksum;
    private String verifiedChecksum;
    private Integer shards;
    private Integer worldSize;
    private String error;
    private int restoreCount;
    private TrainerData.SaveReason reason;
    private Durability durability;
    private List<String> holders = List.of();

    CheckpointEntry(String id, long ordinal, long step, int epoch, String restoredFrom) {
        this.id = id;
        this.ordinal = ordinal;
        this.step = step;
        this.epoch = epoch;
        this.restoredFrom = restoredFrom;
    }

    /** The checkpoint's state as plain values. */
    SavedCheckpoint save() {
        return new SavedCheckpoint(
                id,
                ordinal,
                step,
                status,
                epoch,
                mark,
                restoredFrom,
                trust.save(),
                startedAt,
                completedAt,
                failedAt,
                verifiedAt,
                async,
                bytes,
                durationMillis,
                blockingMillis,
                uri,
                checksum,
                verifiedChecksum,
                shards,
                worldSize,
                error,
                restoreCount,
                reason,
                durability,
                holders);
    }

    /** A checkpoint in the state {@link #save()} gave. */
    static CheckpointEntry restore(SavedCheckpoint s) {
        CheckpointEntry e = new CheckpointEntry(s.id(), s.ordinal(), s.step(), s.epoch(), s.restoredFrom());
        e.status = s.status();
        e.mark = s.mark();
        e.trust = TrustState.restore(s.trust());
        e.startedAt = s.startedAt();
        e.completedAt = s.completedAt();
        e.failedAt = s.failedAt();
        e.verifiedAt = s.verifiedAt();
        e.async = s.async();
        e.bytes = s.bytes();
        e.durationMillis = s.durationMillis();
        e.blockingMillis = s.blockingMillis();
        e.uri = s.uri();
        e.checksum = s.checksum();
        e.verifiedChecksum = s.verifiedChecksum();
        e.shards = s.shards();
        e.worldSize = s.worldSize();
        e.error = s.error();
        e.restoreCount = s.restoreCount();
        e.reason = s.reason();
        e.durability = s.durability();
        e.holders = s.holders() == null ? List.of() : List.copyOf(s.holders());
        return e;
    }

    /** Why the trainers saved it, when they said; null otherwise. */
    public TrainerData.SaveReason reason() {
        return reason;
    }

    /** Whether it was saved because the trainers were about to stop (prepare_exit or a termination signal). */
    public boolean exitSave() {
        return reason != null && reason.forExit();
    }

    public String id() {
        return id;
    }

    /** Order of creation in its ledger, from 1. */
    public long ordinal() {
        return ordinal;
    }

    public long step() {
        return step;
    }

    public CheckpointStatus status() {
        return status;
    }

    /** The lineage epoch (run since the last restore) in which the training state was captured. */
    public int epoch() {
        return epoch;
    }

    /** Cumulative productive time when the state was captured, or null when unknown. */
    public ProductiveMark mark() {
        return mark;
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** When it became complete: the completion time, or the verification time when completion was not seen. */
    public Instant completedAt() {
        return completedAt != null ? completedAt : status == CheckpointStatus.VERIFIED ? verifiedAt : null;
    }

    public boolean async() {
        return async;
    }

    public Long blockingMillis() {
        return blockingMillis;
    }

    void step(long s) {
        this.step = s;
    }

    void status(CheckpointStatus s) {
        this.status = status.upTo(s);
    }

    void mark(ProductiveMark m, int e) {
        this.mark = m;
        this.epoch = e;
    }

    void started(Instant at, boolean isAsync, TrainerData.SaveReason why) {
        this.startedAt = at;
        this.async = isAsync;
        if (why != null) {
            this.reason = why;
        }
    }

    void completed(
            Instant at,
            boolean isAsync,
            Long size,
            long durationMs,
            long blockingMs,
            String location,
            String sum,
            Integer shardCount,
            Integer ranks) {
        this.completedAt = at;
        this.async = isAsync;
        this.bytes = size;
        this.durationMillis = durationMs;
        this.blockingMillis = blockingMs;
        this.uri = location;
        this.checksum = sum;
        this.shards = shardCount;
        this.worldSize = ranks;
    }

    /** Where it is stored, once it completed: its durability class and the nodes holding it. */
    void placed(CheckpointStorage.Placement p) {
        this.durability = p.durability();
        this.holders = p.holders();
    }

    /** Its durability class, or null before it completed. */
    public Durability durability() {
        return durability;
    }

    /** The nodes holding a node-local or replicated checkpoint; empty for storage off the nodes. */
    public List<String> holders() {
        return holders;
    }

    /** Whether a copy is left once {@code node} is gone (one not yet classified counts as it did before: yes). */
    public boolean survivesLossOf(String node) {
        return durability == null || durability.survivesLossOf(node, holders);
    }

    /** Whether the loss of any one node leaves a copy. */
    public boolean survivesAnyNode() {
        return durability == null || durability.survivesAnyNode(holders);
    }

    void failed(Instant at, String why) {
        this.failedAt = at;
        this.error = why;
    }

    void verified(Instant at, String sum) {
        this.verifiedAt = at;
        this.verifiedChecksum = sum;
    }

    void restoredOnce() {
        restoreCount++;
    }

    /** The loss when the save began and the verdict on it (judged once, at the first start seen). */
    void judged(Double loss, LossWindow.Verdict v) {
        trust.judged(loss, v);
    }

    /** An operator's mark: trusted or suspect, whatever the loss and the verification say. */
    void markTrust(boolean trusted, String why, String by, Instant at) {
        trust.mark(trusted, why, by, at);
    }

    /** Whether it is trusted or suspect and why, for a job that does or does not verify; null while not complete. */
    public CheckpointTrust trust(boolean verifies) {
        return trust.view(status, verifies);
    }

    CheckpointView view(boolean good, boolean verifies) {
        return new CheckpointView(
                id,
                step,
                status,
                good,
                trust.view(status, verifies),
                restoredFrom,
                startedAt,
                completedAt,
                failedAt,
                verifiedAt,
                async,
                bytes,
                durationMillis,
                blockingMillis,
                uri,
                checksum,
                verifiedChecksum,
                shards,
                worldSize,
                error,
                restoreCount,
                durability == null ? null : durability.wire(),
                holders);
    }
}
