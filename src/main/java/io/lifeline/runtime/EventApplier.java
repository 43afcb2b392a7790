package io.lifeline.runtime;

import io.lifeline.domain.event.Event;

/** The model as the runtime sees it: something that applies events, one at a time, on one thread. */
public interface EventApplier {

    void apply(Event event);
}
