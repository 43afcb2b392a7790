/**
 * Silent failures: a job whose workers are alive but make no progress. Each rank's heartbeat (its step-time report,
 * sent even without steps) says how long ago it stepped and what it is doing; {@link io.lifeline.domain.job.hang.HangWatch}
 * judges that against thresholds the job earns from its own step and save times, and names the ranks that differ.
 * The stacks the ranks send on request are grouped by {@link io.lifeline.domain.job.hang.StackCapture}.
 */
package io.lifeline.domain.job.hang;
