/**
 * Fleet reliability: interruption rates and MTBF per pool, zone, instance type and capacity type, by cause, over
 * whole-day windows, with exact Poisson intervals, and lemon nodes with their evidence. Pure, JDK only.
 */
package io.lifeline.domain.fleet.reliability;
