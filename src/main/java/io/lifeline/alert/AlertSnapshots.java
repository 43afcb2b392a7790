package io.lifeline.alert;

import io.lifeline.action.ActionService;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.StorageConfig;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.alert.AlertSnapshot;
import io.lifeline.domain.alert.AlertSnapshot.BrakeFacts;
import io.lifeline.domain.alert.AlertSnapshot.FailedAction;
import io.lifeline.domain.alert.AlertSnapshot.HangFacts;
import io.lifeline.domain.alert.AlertSnapshot.IngestFacts;
import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import io.lifeline.domain.alert.AlertSnapshot.NodeFacts;
import io.lifeline.domain.alert.AlertSnapshot.NoticeFacts;
import io.lifeline.domain.alert.AlertSnapshot.XidFacts;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeSnapshot;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidOccurrence;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import io.lifeline.domain.job.spot.SpotPlacement;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.domain.page.Page;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.storage.StorageTargetView;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.policy.AutomationBrakeService;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshot.JobSnapshot;
import io.lifeline.runtime.ModelSnapshots;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Fills an {@link AlertSnapshot} from the latest snapshot of the model ({@link ModelSnapshots}: consistent, and read
 * without touching the model thread), the actions service and the ingest counters. Only what the rules need is
 * taken: incidents and checkpoints only of jobs that were interrupted, XIDs and lemon scores only of nodes with a
 * failed GPU or a lemon score.
 */
@ApplicationScoped
public class AlertSnapshots {

    private static final Logger LOG = Logger.getLogger(AlertSnapshots.class);
    private static final int MAX_FAILED_ACTIONS = 500;
    /** Suspect nodes named in a hang alert: enough to start with, few enough for a chat message. */
    private static final int MAX_SUSPECT_NODES = 8;

    private final ModelRuntime model;
    private final ModelSnapshots snapshots;
    private final Instance<ActionService> actions;
    private final Instance<AutomationBrakeService> brake;
    private final Instance<ObjectiveService> objectives;
    private final java.time.Duration storageAlertBefore;
    private final java.util.Set<io.micrometer.core.instrument.Meter> invalidCounters =
            java.util.concurrent.ConcurrentHashMap.newKeySet();

    AlertSnapshots(
            ModelRuntime model,
            ModelSnapshots snapshots,
            Instance<ActionService> actions,
            Instance<AutomationBrakeService> brake,
            Instance<ObjectiveService> objectives,
            StorageConfig storage,
            MeterRegistry registry) {
        this.storageAlertBefore = storage.alertBefore();
        this.model = model;
        this.snapshots = snapshots;
        this.actions = actions;
        this.brake = brake;
        this.objectives = objectives;
        // The invalid-event counters, kept as they are registered: a search of the registry walks every meter, and
        // with per-GPU series that was a fifth of the CPU under ingest load, every evaluation.
        registry.config().onMeterAdded(this::track).onMeterRemoved(invalidCounters::remove);
        registry.getMeters().forEach(this::track);
    }

    private void track(io.micrometer.core.instrument.Meter meter) {
        io.micrometer.core.instrument.Meter.Id id = meter.getId();
        if (meter instanceof Counter c
                && (id.getName().equals("lifeline_ingest_dead_lettered_events")
                        || id.getName().equals("lifeline_ingest_rejected_events")
                                && "http".equals(id.getTag("transport")))) {
            invalidCounters.add(c);
        }
    }

    /**
     * Takes a snapshot. A part that cannot be read is left null, so its rules keep their alerts as they are (the
     * model's part before the model published its first snapshot).
     *
     * @param now             the evaluation time
     * @param actionsLookback how far back failed actions are looked for (the longest action-failed window)
     */
    @SuppressWarnings("ReferenceEquality") // EMPTY is the sentinel for no snapshot yet
    public AlertSnapshot take(Instant now, Duration actionsLookback) {
        ModelSnapshot latest = snapshots.latest();
        ModelPart part = null;
        try {
            part = latest == ModelSnapshot.EMPTY ? null : fromModel(latest);
        } catch (RuntimeException e) {
            LOG.warnf("Alert rules could not read the model this time: %s", e.toString());
        }
        return new AlertSnapshot(
                part == null ? null : part.jobs,
                part == null ? null : part.notices,
                part == null ? null : part.xids,
                part == null ? null : part.nodes,
                failedActions(now, actionsLookback),
                new IngestFacts(model.queued(), deadLettered()),
                brake(),
                objectives(),
                latest == ModelSnapshot.EMPTY ? null : storage(latest, storageAlertBefore));
    }

    /** The checkpoint storage targets, with every job's figures. */
    static List<AlertSnapshot.StorageFacts> storage(ModelSnapshot m, Duration alertBefore) {
        List<AlertSnapshot.StorageFacts> out = new ArrayList<>();
        for (StorageTargetView t : m.storage()) {
            out.add(new AlertSnapshot.StorageFacts(
                    t.target(),
                    t.namespaces(),
                    t.freeBytes(),
                    t.capacityBytes(),
                    t.secondsUntilFull(),
                    t.netBytesPerHour(),
                    t.largestRecentBytes(),
                    alertBefore));
        }
        return out;
    }

    /** The goodput objectives as their last sample left them, or null when they cannot be read this time. */
    private List<AlertSnapshot.ObjectiveFacts> objectives() {
        if (!objectives.isResolvable()) {
            return null;
        }
        try {
            List<AlertSnapshot.ObjectiveFacts> out = new java.util.ArrayList<>();
            for (ObjectiveStatus s : objectives.get().statuses()) {
                out.add(new AlertSnapshot.ObjectiveFacts(
                        s.objective().name(),
                        s.objective().scope().toString(),
                        s.objective().scope().namespace(),
                        s.objective().ettrTarget(),
                        s.ettr(),
                        s.burnRates(),
                        s.fastBurn(),
                        s.slowBurn(),
                        s.remainingShare()));
            }
            return out;
        } catch (RuntimeException e) {
            LOG.warnf("Alert rules could not read the objectives this time: %s", e.toString());
            return null;
        }
    }

    /** The automation brake as stored (shared by the replicas), or null when it cannot be read this time. */
    private BrakeFacts brake() {
        if (!brake.isResolvable()) {
            return null;
        }
        try {
            AutomationBrake.State s = brake.get().refresh();
            AutomationBrake.Trip t = s.engaged();
            return t == null
                    ? BrakeFacts.RELEASED
                    : new BrakeFacts(true, t.at(), t.reason(), t.policy(), t.node(), t.pool(), s.held());
        } catch (RuntimeException e) {
            LOG.warnf("Alert rules could not read the automation brake this time: %s", e.toString());
            return null;
        }
    }

    /** The ladder's advice (acted on) to stop the job, while it holds and the job does not train; else null. */
    private static Advice stopAdvice(JobSummary s, Advice a) {
        return a != null
                        && a.remedy() == Remedy.STOP_AND_PAGE
                        && a.verdict() != Verdict.FAILED
                        // A dry run stops nothing: the loop goes on, and the alert would come and go with it.
                        && !a.dryRun()
                        && s.state() != JobState.RUNNING
                        && !s.state().isTerminal()
                ? a
                : null;
    }

    /** The model's part of a snapshot. */
    record ModelPart(List<JobFacts> jobs, List<NoticeFacts> notices, List<XidFacts> xids, List<NodeFacts> nodes) {}

    static ModelPart fromModel(ModelSnapshot m) {
        List<JobFacts> jobs = new ArrayList<>();
        List<NoticeFacts> notices = new ArrayList<>();
        for (JobSnapshot j : m.jobs()) {
            JobSummary s = j.summary();
            FreshnessView f = j.detail().freshness();
            List<Instant> restarts = new ArrayList<>();
            if (s.interruptions() > 0) {
                List<Instant> checkpoints = null;
                for (IncidentView i : j.incidents()) {
                    if (i.interrupted()) {
                        restarts.add(i.stoppedAt());
                    }
                    if (i.noticeAt() != null) {
                        if (checkpoints == null) {
                            checkpoints = goodCheckpoints(j.checkpoints());
                        }
                        notices.add(new NoticeFacts(
                                s.name(),
                                s.namespace(),
                                i.originNode(),
                                i.id(),
                                i.noticeAt(),
                                i.deadline(),
                                i.stoppedAt(),
                                checkpoints));
                    }
                }
            }
            SpotPlacement placement = j.detail().placement();
            boolean flagged = placement != null && placement.flagged();
            jobs.add(new JobFacts(
                    s.name(),
                    s.namespace(),
                    s.state().isActive(),
                    s.freshnessAgeMillis(),
                    f == null ? 0 : f.objectiveMillis(),
                    restarts,
                    flagged,
                    flagged ? placement.warning() : null,
                    s.nodeLocalCheckpoint(),
                    j.detail().stragglers(),
                    openHang(s, j.incidents()),
                    stopAdvice(s, j.recovery()),
                    io.lifeline.domain.job.checkpoint.NoSpaceRefusal.latest(j.checkpoints())));
        }
        List<XidFacts> xids = new ArrayList<>();
        List<NodeFacts> nodes = new ArrayList<>();
        for (NodeSnapshot ns : m.fleet().nodes()) {
            NodeSummary n = ns.summary();
            if (n.health() != GpuHealth.FAILED && n.lemonScore() == 0) {
                continue;
            }
            NodeDetail d = ns.detail();
            if (n.lemonScore() > 0) {
                nodes.add(new NodeFacts(
                        n.name(), n.pool(), d.lemon().interruptions(), d.lemon().window()));
            }
            for (XidOccurrence x : d.xidHistory()) {
                if (x.health() == GpuHealth.FAILED) {
                    xids.add(new XidFacts(
                            n.name(),
                            x.gpuIndex(),
                            x.gpuUuid(),
                            x.xid(),
                            x.time(),
                            true,
                            x.description(),
                            namespaceOf(d.gpus(), x.gpuIndex())));
                }
            }
        }
        return new ModelPart(jobs, notices, xids, nodes);
    }

    /** The job's open incident when its cause is a hang, else null. The open incident is the last one listed. */
    static HangFacts openHang(JobSummary s, List<IncidentView> incidents) {
        if (s.openIncident() == null || incidents.isEmpty()) {
            return null;
        }
        IncidentView i = incidents.get(incidents.size() - 1);
        if (i.cause() != IncidentCause.HANG || i.closedAt() != null || !i.id().equals(s.openIncident())) {
            return null;
        }
        // The detector names the first suspect's node as the origin; the other suspects' nodes follow it.
        java.util.LinkedHashSet<String> nodes = new java.util.LinkedHashSet<>();
        if (i.originNode() != null) {
            nodes.add(i.originNode());
        }
        for (String n : i.nodes()) {
            if (nodes.size() >= MAX_SUSPECT_NODES) {
                break;
            }
            nodes.add(n);
        }
        return new HangFacts(i.id(), i.stoppedAt(), i.hangMillis(), List.copyOf(nodes), i.causeDetail());
    }

    private static List<Instant> goodCheckpoints(CheckpointHistory h) {
        List<Instant> out = new ArrayList<>();
        if (h != null) {
            for (CheckpointView c : h.checkpoints()) {
                if (c.good() && c.completedAt() != null) {
                    out.add(c.completedAt());
                }
            }
        }
        return out;
    }

    private static String namespaceOf(List<GpuView> gpus, int index) {
        for (GpuView g : gpus) {
            if (g.index() == index) {
                return g.namespace();
            }
        }
        return null;
    }

    /** Failed actions from the actions service, or null when there is none or it cannot answer. */
    private List<FailedAction> failedActions(Instant now, Duration lookback) {
        if (!actions.isResolvable()) {
            return null;
        }
        try {
            // Newest first and not filtered by creation time: an action created long ago may have failed just now.
            Page<ActionView> page = actions.get()
                    .list(new ActionQuery(null, ActionState.FAILED, null, null, null, null, MAX_FAILED_ACTIONS, null));
            Instant from = now.minus(lookback);
            List<FailedAction> out = new ArrayList<>();
            for (ActionView a : page.items()) {
                if (a.updatedAt() != null && !a.updatedAt().isBefore(from)) {
                    out.add(new FailedAction(a.id(), a.kind().wire(), a.target(), a.updatedAt(), a.outcome()));
                }
            }
            return out;
        } catch (RuntimeException e) {
            LOG.warnf("Alert rules could not list failed actions this time: %s", e.toString());
            return null;
        }
    }

    /** Events refused as invalid so far: dead-lettered from Kafka plus rejected over HTTP. */
    private long deadLettered() {
        double total = 0;
        for (io.micrometer.core.instrument.Meter m : invalidCounters) {
            total += ((Counter) m).count();
        }
        return (long) total;
    }
}
