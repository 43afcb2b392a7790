package io.lifeline.domain.fleet.reliability;

import java.util.List;

/**
 * One node's time in service and interruptions within a window.
 *
 * @param node           node name
 * @param key            its facts
 * @param nodeMillis     milliseconds in service (registered, not terminated) within the window
 * @param interruptions  its interruptions within the window, oldest first (the newest the node keeps)
 */
public record NodeExposure(String node, GroupKey key, long nodeMillis, List<Interruption> interruptions) {

    public NodeExposure {
        interruptions = List.copyOf(interruptions);
    }
}
