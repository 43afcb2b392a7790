/**
 * Recovery time split by phase (detection, decision, rescheduling, rendezvous, restore, lost rework) over the
 * interruptions of a window, per cause, per pool or per both, as distributions: count, median, 90th percentile,
 * maximum and total per phase, and the GPU-hours each phase held. Computed on request over the incidents the jobs
 * model keeps.
 */
package io.lifeline.domain.job.recoverytime;
