/**
 * GPU health: per-GPU hot state, verdicts from dcgm-exporter samples and XIDs, and the versioned XID policy table
 * ({@link io.lifeline.domain.gpu.XidPolicy}, built from the tables under {@code src/main/resources/xid/}).
 */
package io.lifeline.domain.gpu;
