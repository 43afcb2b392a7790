/**
 * The Quarkus edge of the demo fleet: {@code lifeline.demo.*} configuration, the scenario file parser
 * (Jackson) and {@link io.lifeline.demo.runtime.DemoRunner}, which ticks the simulator in real time (or
 * faster) into {@link io.lifeline.ingest.IngestGateway}.
 */
package io.lifeline.demo.runtime;
