package io.lifeline.domain.fleet.reliability;

import java.time.Instant;

/**
 * The pods one node's kubelet rejected at admission or device allocation within a reliability window.
 *
 * @param node     node name
 * @param pool     its pool, null before registration
 * @param count    rejections on the window's days
 * @param last     the newest rejection, null when unknown
 * @param suspect  whether the node is a suspect now (it swallows pods: see the admission-failure-cordon policy)
 */
public record NodeAdmissionFailures(String node, String pool, long count, Instant last, boolean suspect) {}
