package io.lifeline.domain.objective;

import java.util.List;

/**
 * The objectives' series as plain values. The names of the buckets and causes the slots' arrays are indexed by are
 * kept beside them: a state saved by a version with other ones is not restored (the windows start again).
 *
 * @param buckets  goodput bucket names, in ordinal order
 * @param causes   incident cause names, in ordinal order
 * @param series   one per objective
 */
public record SavedBook(List<String> buckets, List<String> causes, List<SavedSeries> series) {}
