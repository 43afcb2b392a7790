package io.lifeline.domain.gpu;

import io.lifeline.domain.event.GpuData;
import java.time.Instant;
import java.util.Objects;

/**
 * What Kubernetes says of one GPU as a device, one register per source, each last-writer-wins by event time: the
 * kubelet's {@code allocatedResourcesStatus} (KEP-4680) and the DRA device taints (KEP-5055). Allocated only for a GPU
 * that has such a report, so GPUs known from telemetry alone cost nothing more.
 */
public final class DeviceReports {

    static final long NEVER = Long.MIN_VALUE;

    /** How applying a report went. */
    public enum Outcome {
        /** Older than the newest report of the same source. */
        STALE,
        /** The same state again (its time confirms the register). */
        UNCHANGED,
        /** The register took a new state. */
        CHANGED
    }

    String kubeletState;
    String kubeletDevice;
    String kubeletDetail;
    long kubeletSince = NEVER;
    long kubeletWritten = NEVER;

    /** The strongest effect of the taints on the device, null while it has none. */
    String taintEffect;

    String taintDevice;
    String taintDetail;
    /** When the device was last found with taints after having none. */
    long taintedSince = NEVER;
    /** When the device was last found without taints after having some. */
    long untaintedAt = NEVER;

    long taintWritten = NEVER;

    /** Applies one report taken at {@code millis}. */
    Outcome apply(GpuData.DeviceHealth d, long millis) {
        if (GpuData.DeviceHealth.KUBELET.equals(d.source())) {
            if (millis < kubeletWritten) {
                return Outcome.STALE;
            }
            kubeletWritten = millis;
            boolean same = Objects.equals(kubeletState, d.state()) && Objects.equals(kubeletDetail, d.detail());
            kubeletDevice = d.device();
            if (same) {
                return Outcome.UNCHANGED;
            }
            if (!Objects.equals(kubeletState, d.state())) {
                kubeletSince = millis;
            }
            kubeletState = d.state();
            kubeletDetail = d.detail();
            return Outcome.CHANGED;
        }
        if (millis < taintWritten) {
            return Outcome.STALE;
        }
        taintWritten = millis;
        String effect = HEALTHY.equals(d.state()) ? null : d.state();
        String detail = effect == null ? null : d.detail();
        if (Objects.equals(taintEffect, effect) && Objects.equals(taintDetail, detail)) {
            return Outcome.UNCHANGED;
        }
        if (taintEffect == null && effect != null) {
            taintedSince = millis;
        } else if (taintEffect != null && effect == null) {
            untaintedAt = millis;
        }
        taintEffect = effect;
        taintDetail = detail;
        taintDevice = d.device();
        return Outcome.CHANGED;
    }

    /** The state a report gives a device that is fine. */
    static final String HEALTHY = "Healthy";

    /** Whether the kubelet reports the device Unhealthy. */
    boolean kubeletUnhealthy() {
        return "Unhealthy".equals(kubeletState);
    }

    /** Whether a taint keeps new work off the device ({@code NoSchedule} or {@code NoExecute}). */
    boolean taintBlocks() {
        return "NoSchedule".equals(taintEffect) || "NoExecute".equals(taintEffect);
    }

    /** Whether a taint that keeps no work off is on the device ({@code None}, or an effect unknown to this release). */
    boolean taintInforms() {
        return taintEffect != null && !taintBlocks();
    }

    /** A read-only view. */
    DeviceView view() {
        return new DeviceView(
                kubeletState,
                kubeletDevice,
                kubeletDetail,
                instant(kubeletSince),
                taintEffect,
                taintDevice,
                taintDetail,
                instant(taintedSince),
                instant(untaintedAt));
    }

    /** This register pair as plain values, for a checkpoint of the model. */
    SavedDeviceReports save() {
        return new SavedDeviceReports(
                kubeletState,
                kubeletDevice,
                kubeletDetail,
                kubeletSince,
                kubeletWritten,
                taintEffect,
                taintDevice,
                taintDetail,
                taintedSince,
                untaintedAt,
                taintWritten);
    }

    static DeviceReports restore(SavedDeviceReports s) {
        DeviceReports r = new DeviceReports();
        r.kubeletState = s.kubeletState();
        r.kubeletDevice = s.kubeletDevice();
        r.kubeletDetail = s.kubeletDetail();
        r.kubeletSince = s.kubeletSince();
        r.kubeletWritten = s.kubeletWritten();
        r.taintEffect = s.taintEffect();
        r.taintDevice = s.taintDevice();
        r.taintDetail = s.taintDetail();
        r.taintedSince = s.taintedSince();
        r.untaintedAt = s.untaintedAt();
        r.taintWritten = s.taintWritten();
        return r;
    }

    private static Instant instant(long millis) {
        return millis == NEVER ? null : Instant.ofEpochMilli(millis);
    }
}
