package io.lifeline.domain.gpu;

import java.time.Instant;

/**
 * One XID reported by one GPU, with what the policy says about it.
 *
 * @param gpuUuid      GPU UUID
 * @param gpuIndex     index on the node
 * @param time         when it was reported (event time)
 * @param xid          XID code
 * @param description  what it means, may be null for XIDs no table knows
 * @param action       what the policy says to do
 * @param health       the verdict it imposes
 */
public record XidOccurrence(
        String gpuUuid, int gpuIndex, Instant time, int xid, String description, XidAction action, GpuHealth health) {}
