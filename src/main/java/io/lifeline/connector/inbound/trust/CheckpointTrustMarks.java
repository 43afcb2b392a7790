package io.lifeline.connector.inbound.trust;

import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.checkpoint.CheckpointTrust;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * An operator's mark of a checkpoint as trusted or suspect: written into the event log as
 * {@code job.checkpoint_trust} (so that every replica, and every rebuild of the model, shows it), applied, and audited
 * as {@code checkpoint.trust_marked} with the verdict before and after.
 */
@ApplicationScoped
public class CheckpointTrustMarks {

    static final String SOURCE = "lifeline/checkpoint-trust";
    private static final Logger LOG = Logger.getLogger(CheckpointTrustMarks.class);

    private final ModelRuntime runtime;
    private final IngestGateway gateway;
    private final ActionStore audit;
    private final Clock clock;

    CheckpointTrustMarks(ModelRuntime runtime, IngestGateway gateway, ActionStore audit, Clock clock) {
        this.runtime = runtime;
        this.gateway = gateway;
        this.audit = audit;
        this.clock = clock;
    }

    /** What marking found: the checkpoint as it is now, or why nothing was marked. */
    public sealed interface Outcome {}

    /** The checkpoint after the mark. */
    public record Marked(CheckpointView checkpoint) implements Outcome {}

    /** The job or the checkpoint is unknown. */
    public record NotFound(String what) implements Outcome {}

    /** The checkpoint is not complete: nothing to restore, nothing to trust. */
    public record NotComplete(String why) implements Outcome {}

    /**
     * Marks checkpoint {@code id} of {@code job} trusted or suspect, as {@code actor} says, for {@code reason}.
     *
     * @throws Exception when the model or the event log did not answer in time
     */
    public Outcome mark(String job, String id, boolean trusted, String reason, String actor) throws Exception {
        Optional<CheckpointView> found = find(job, id);
        if (found.isEmpty()) {
            return new NotFound("job " + job + " has no checkpoint " + id);
        }
        CheckpointView before = found.get();
        if (before.trust() == null) {
            return new NotComplete("checkpoint " + id + " is " + before.status().wire()
                    + ": only a complete checkpoint can be trusted or suspect");
        }
        Instant now = clock.instant();
        Event e = new Event(
                "trust/" + UUID.randomUUID(),
                SOURCE,
                EventType.JOB_CHECKPOINT_TRUST,
                job,
                now,
                new JobData.CheckpointTrustMarked(id, trusted, reason, actor));
        gateway.submit(List.of(e))
                .thenCompose(receipt -> receipt.applied())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        audit.audit(new AuditEntry(
                0,
                now,
                actor,
                "checkpoint.trust_marked",
                "checkpoint:" + job + "/" + id,
                null,
                reason,
                describe(before.trust()),
                trusted ? "trusted" : "suspect (marked)"));
        LOG.infof("%s marked checkpoint %s of %s %s: %s", actor, id, job, trusted ? "trusted" : "suspect", reason);
        CheckpointView after = find(job, id).orElse(before);
        return new Marked(after);
    }

    private Optional<CheckpointView> find(String job, String id) throws Exception {
        return runtime.read(m -> m.jobs()
                        .checkpoints(job)
                        .flatMap(h -> h.checkpoints().stream()
                                .filter(c -> c.id().equals(id))
                                .findFirst()))
                .get(30, TimeUnit.SECONDS);
    }

    private static String describe(CheckpointTrust t) {
        return t.trusted() ? "trusted" : "suspect (" + t.reason() + (t.detail() == null ? "" : ": " + t.detail()) + ")";
    }
}
