package io.lifeline.domain.policy.colocation;

import java.util.Objects;

/**
 * A time window during which a pool's GPUs are lent to inference: its elastic training jobs shrink to their minimum
 * while it is open and grow back to their maximum after.
 *
 * @param name     the window's name, as configured
 * @param pool     the pool whose training jobs yield
 * @param schedule when it is open
 */
public record LendingWindow(String name, String pool, WindowSchedule schedule) {

    public LendingWindow {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(schedule, "schedule");
    }
}
