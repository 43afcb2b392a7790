package io.lifeline.domain.fleet.reliability;

/**
 * The facts a node's reliability is grouped by; any may be null (unknown).
 *
 * @param pool          node pool
 * @param zone          zone
 * @param instanceType  instance type
 * @param capacityType  capacity type, wire form ({@code spot}, {@code on-demand}, {@code reserved})
 */
public record GroupKey(String pool, String zone, String instanceType, String capacityType) {}
