package io.lifeline.api.read;

import io.lifeline.domain.page.Cursor;
import java.util.List;

/**
 * A slice of a list read from a live snapshot (jobs, nodes, GPUs), by position. It tells how many match in all, which
 * a keyset page cannot, and it continues the way every paged answer does: pass {@code nextCursor} back as
 * {@code cursor} (made by {@link Cursor}, as the keyset lists' cursors are), or ask for an {@code offset}.
 *
 * @param items       this page
 * @param total       how many match in all
 * @param offset      where this page starts
 * @param limit       page size asked for
 * @param nextCursor  the cursor of the next page, or null when this page reaches the end
 */
public record Page<T>(List<T> items, int total, int offset, int limit, String nextCursor) {

    public Page {
        items = List.copyOf(items);
    }

    /** The page of {@code items} (already cut to at most {@code limit}) that starts at {@code offset}. */
    static <T> Page<T> at(List<T> items, int total, int offset, int limit) {
        int end = offset + items.size();
        return new Page<>(items, total, offset, limit, end < total ? Cursor.of(end) : null);
    }

    static <T> Page<T> of(List<T> all, int offset, int limit) {
        int from = Math.min(offset, all.size());
        int to = Math.min(all.size(), from + limit);
        return at(all.subList(from, to), all.size(), offset, limit);
    }
}
