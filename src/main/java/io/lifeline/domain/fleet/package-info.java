/**
 * The live model of the fleet: nodes, their lifecycle, their GPUs, and the signals jobs must hear about.
 *
 * <p>Entry point: {@link io.lifeline.domain.fleet.Fleet}. Design notes: {@code DESIGN.md} in this folder.
 */
package io.lifeline.domain.fleet;
