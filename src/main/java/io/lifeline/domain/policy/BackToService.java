package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.HealthCheck;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
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
 * health check ({@code node.health_check}) newer than the drain and every XID. The decision is an uncordon whose
 * reason carries the evidence, so the audit records why the node came back.
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
     */
    public record Settings(Check check, Duration healthyWindow, Duration sampleMaxAge) {

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
        if (fault == null) {
            return Optional.empty();
        }
        String what = "drained " + drained + " for XID " + fault.xid() + " on GPU " + fault.gpuIndex() + " at "
                + fault.time();
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
