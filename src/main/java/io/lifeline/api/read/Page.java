package io.lifeline.api.read;

import java.util.List;

/**
 * A slice of a list answer.
 *
 * @param items   this page
 * @param total   how many match in all
 * @param offset  where this page starts
 * @param limit   page size asked for
 */
public record Page<T>(List<T> items, int total, int offset, int limit) {

    static <T> Page<T> of(List<T> all, int offset, int limit) {
        int from = Math.min(offset, all.size());
        int to = Math.min(all.size(), from + limit);
        return new Page<>(List.copyOf(all.subList(from, to)), all.size(), offset, limit);
    }
}
