/**
 * Trace import and what-if replay (pure): readers that turn public traces (Philly, OPT-175B chronicles) and
 * Lifeline's own stored history into one stream of catalogue events, a player that applies such a stream to the
 * real jobs model, and the what-if simulator that replays a job's interruptions through that model with other
 * checkpoint and notice settings. See docs/whatif.md.
 */
package io.lifeline.domain.replay;
