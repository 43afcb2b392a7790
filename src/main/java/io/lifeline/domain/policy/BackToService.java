package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.HealthCheck;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.DeviceView;
import io.lifeline.domain.gpu.GpuThresholds;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidAction;
import io.lifeline.domain.gpu.XidOccurrence;
import io.lifeline.domain.gpu.XidRule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Returns a node drained for a GPU fault to service once a validation passes: the node is DRAINING (a drain action
 * took it out), cordoned, and its current life had a fatal XID at or before the drain began. The validation is
 * either a fresh, healthy sample of every GPU with no XID for {@link Settings#healthyWindow()}, or a passed external
 * health check ({@code node.health_check}) newer than the drain and every XID. Where configured
 * ({@link Settings#acceptTaintRemoval()}), the removal of the DRA device taints a GPU carried also validates: a node
 * whose GPU was tainted at or before the drain (or drained for a fatal XID) returns once no GPU of it is tainted or
 * reported Unhealthy by the kubelet and a taint was removed after the drain and the last XID. The decision is an
 * uncordon whose reason carries the evidence, so the audit records why the node came back.
 */
public final class BackToService {

    /** Which validation returns a node. */
    public enum Check {
        SAMPLES,
        HEALTH_CHECK
    }

    /**
     * @param check          the validation
     * @param healthyWindow  for {@link Check#SAMPLES}: how long without a new XID (default 10 minutes)
     * @param sampleMaxAge   for {@link Check#SAMPLES}: how old each GPU's latest sample may be (default 2 minutes)
     * @param acceptTaintRemoval  whether the removal of a GPU's DRA device taints validates too, besides
     *                            {@code check} (default false)
     */
    public record Settings(Check check, Duration healthyWindow, Duration sampleMaxAge, boolean acceptTaintRemoval) {

        public Settings {
            if (check == null
                    || healthyWindow == null
                    || healthyWindow.isNegative()
                    || sampleMaxAge == null
                    || sampleMaxAge.isNegative()
                    || sampleMaxAge.isZero()) {
                throw new IllegalArgumentException(
                        "back-to-service needs a check, a healthy window >= 0 and a sample " + "age > 0");
            }
        }

        /** Settings without the taint removal. */
        public Settings(Check check, Duration healthyWindow, Duration sampleMaxAge) {
            this(check, healthyWindow, sampleMaxAge, false);
        }

        public static Settings defaults() {
            return new Settings(Check.SAMPLES, Duration.ofMinutes(10), Duration.ofMinutes(2));
        }
    }

    private BackToService() {}

    /** One uncordon decision per node whose validation passed now. */
    public static List<PolicyDecision> decisions(PolicySettings policies, Settings settings, Fleet fleet, Instant now) {
        List<PolicyDecision> out = new ArrayList<>();
        for (NodeSummary s : fleet.nodes(new NodeQuery(null, null, NodeLifecycle.DRAINING, null))) {
            if (!s.cordoned()) {
                continue;
            }
            NodeDetail d = fleet.node(s.name()).orElse(null);
            if (d == null) {
                continue;
            }
            String pool = d.facts() == null ? null : d.facts().pool();
            PolicyMode mode = policies.modeFor(PolicyName.BACK_TO_SERVICE, null, pool);
            if (mode == PolicyMode.OFF) {
                continue;
            }
            evidence(d, fleet, settings, now)
                    .ifPresent(reason -> out.add(new PolicyDecision(
                            PolicyName.BACK_TO_SERVICE,
                            mode,
                            new ActionRequest(ActionKind.UNCORDON, d.name(), Map.of(), reason),
                            "back-to-service:" + d.name() + ":" + d.stateSince())));
        }
        return out;
    }

    /** Why the node may come back, or empty while it may not. */
    static Optional<String> evidence(NodeDetail d, Fleet fleet, Settings settings, Instant now) {
        Instant drained = d.stateSince();
        XidOccurrence fault = null;
        Instant lastXid = null;
        for (XidOccurrence x : d.xidHistory()) {
            if (lastXid == null || x.time().isAfter(lastXid)) {
                lastXid = x.time();
            }
            if (fatal(fleet, x.xid()) && drained != null && !x.time().isAfter(drained)) {
                fault = x;
            }
        }
        GpuView tainted = settings.acceptTaintRemoval() ? taintedBefore(d, drained) : null;
        if (fault == null && tainted == null) {
            return Optional.empty();
        }
        String what = fault != null
                ? "drained " + drained + " for XID " + fault.xid() + " on GPU " + fault.gpuIndex() + " at "
                        + fault.time()
                : "drained " + drained + " for DRA device taint on GPU " + tainted.index() + " since "
                        + tainted.device().taintedSince();
        if (settings.acceptTaintRemoval()) {
            Optional<String> untainted = untainted(d, drained, lastXid);
            if (untainted.isPresent()) {
                return Optional.of(what + "; " + untainted.get());
            }
        }
        if (fault == null) {
            return Optional.empty();
        }
        if (settings.check() == Check.HEALTH_CHECK) {
            HealthCheck h = fleet.healthCheck(d.name()).orElse(null);
            if (h == null
                    || !h.passed()
                    || h.time().isBefore(drained)
                    || !h.time().isAfter(lastXid)) {
                return Optional.empty();
            }
            return Optional.of(what + "; health check passed at " + h.time()
                    + (h.detail() == null ? "" : " (" + h.detail() + ")") + ", no XID since " + lastXid);
        }
        Instant quietSince = lastXid.plus(settings.healthyWindow());
        if (now.isBefore(quietSince) || d.gpus().isEmpty()) {
            return Optional.empty();
        }
        GpuThresholds t = fleet.gpuThresholds();
        Instant oldest = null;
        for (GpuView g : d.gpus()) {
            if (g.sampledAt() == null
                    || !g.sampledAt().isAfter(lastXid)
                    || g.sampledAt().isBefore(now.minus(settings.sampleMaxAge()))
                    || !healthy(g, t)) {
                return Optional.empty();
            }
            oldest = oldest == null || g.sampledAt().isBefore(oldest) ? g.sampledAt() : oldest;
        }
        return Optional.of(
                what + "; no XID for " + Duration.between(lastXid, now).toMinutes() + " min (last " + lastXid + "), "
                        + d.gpus().size() + " GPU(s) sampled healthy since " + oldest);
    }

    /** A GPU of the node whose DRA device taint began at or before the drain, or null. */
    private static GpuView taintedBefore(NodeDetail d, Instant drained) {
        for (GpuView g : d.gpus()) {
            DeviceView v = g.device();
            if (v != null
                    && v.taintedSince() != null
                    && drained != null
                    && !v.taintedSince().isAfter(drained)) {
                return g;
            }
        }
        return null;
    }

    /**
     * The taint removal that validates the node: no GPU tainted or reported Unhealthy by the kubelet now, and a taint
     * removed after the drain began and after the last XID; empty otherwise.
     */
    private static Optional<String> untainted(NodeDetail d, Instant drained, Instant lastXid) {
        GpuView removed = null;
        for (GpuView g : d.gpus()) {
            DeviceView v = g.device();
            if (v == null) {
                continue;
            }
            if (v.taint() != null || "Unhealthy".equals(v.kubelet())) {
                return Optional.empty();
            }
            if (v.untaintedAt() != null
                    && drained != null
                    && v.untaintedAt().isAfter(drained)
                    && (lastXid == null || v.untaintedAt().isAfter(lastXid))
                    && (removed == null
                            || v.untaintedAt().isAfter(removed.device().untaintedAt()))) {
                removed = g;
            }
        }
        if (removed == null) {
            return Optional.empty();
        }
        return Optional.of("DRA device taint removed from GPU " + removed.index() + " ("
                + removed.device().taintDevice() + ") at " + removed.device().untaintedAt()
                + ", no GPU tainted or reported Unhealthy");
    }

    private static boolean fatal(Fleet fleet, int xid) {
        XidRule rule = fleet.xidPolicy().rule(xid);
        return rule.fatal() || rule.action() == XidAction.DRAIN || rule.action() == XidAction.REBOOT;
    }

    /** The sample's own values are healthy (the XID verdict holds until the next life, so it is not asked). */
    private static boolean healthy(GpuView g, GpuThresholds t) {
        return (g.eccDbeVolatile() == null || g.eccDbeVolatile() == 0)
                && (g.rowRemapFailures() == null || g.rowRemapFailures() == 0)
                && (g.temperatureCelsius() == null || g.temperatureCelsius() < t.temperatureDegradedCelsius());
    }
}
