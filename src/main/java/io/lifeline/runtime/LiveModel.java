package io.lifeline.runtime;

import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.Jobs;

/**
 * The model the application runs: the core's {@link LifelineModel} with the {@link Fleet} as its node part, so
 * readers get the fleet's own read methods. Touched only on the model thread (see {@link ModelRuntime}).
 *
 * @param root   routes events to the fleet and the jobs
 * @param fleet  the node part of {@code root}
 */
public record LiveModel(LifelineModel root, Fleet fleet) {

    public static LiveModel create(java.time.Clock clock) {
        Fleet fleet = new Fleet(clock);
        return new LiveModel(new LifelineModel(fleet, clock), fleet);
    }

    public Jobs jobs() {
        return root.jobs();
    }

    void apply(Event e) {
        root.apply(e);
    }
}
