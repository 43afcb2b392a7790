package io.lifeline.demo;

/**
 * A simulated training pod: one per node a job holds.
 *
 * @param namespace the job's namespace
 * @param name      the pod's name ({@code <job>-worker-<rank index>} once in the job's world)
 * @param job       the job ({@code namespace/name})
 * @param node      the node it runs on
 */
public record SimPod(String namespace, String name, String job, String node) {}
