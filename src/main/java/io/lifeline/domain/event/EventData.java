package io.lifeline.domain.event;

/** The typed payload of an {@link Event}: one sealed family per layer. */
public sealed interface EventData permits NodeData, GpuData, SchedulerData, TrainerData, JobData {}
