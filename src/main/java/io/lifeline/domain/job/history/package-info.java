/**
 * A job's incidents and checkpoints as records that outlive memory: {@link io.lifeline.domain.job.history.HistoryRecord}
 * (one record as it stands after a change, for a store to keep) and {@link io.lifeline.domain.job.history.HistorySlice}
 * (one page of them, merging what memory holds with what was stored). Used by the jobs model and by the checkpoint
 * ledger, so it depends on neither.
 */
package io.lifeline.domain.job.history;
