/**
 * Goodput objectives: an ETTR target over a rolling window for a job, a namespace, an owner or a pool, the error
 * budget it allows in GPU-hours and money, what spent it, and how fast it burns.
 */
package io.lifeline.domain.objective;
