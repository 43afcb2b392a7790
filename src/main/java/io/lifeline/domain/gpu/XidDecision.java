package io.lifeline.domain.gpu;

/** One decision row of Lifeline's own policy table: the action and verdict an XID leads to, and why. */
record XidDecision(XidAction action, GpuHealth health, String note) {}
