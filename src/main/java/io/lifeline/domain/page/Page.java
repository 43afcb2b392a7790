package io.lifeline.domain.page;

import java.util.List;
import java.util.function.Function;

/**
 * One page of a keyset-paged list: its items, in the list's order, and the cursor that continues after them. Pass
 * {@code nextCursor} back unchanged for the next page; it is null on the last page. The cursor is made by
 * {@link Cursor}, so every list has the same opaque format.
 *
 * @param items       this page's items
 * @param nextCursor  the cursor of the next page, or null when this is the last
 * @param <T>         the item type
 */
public record Page<T>(List<T> items, String nextCursor) {

    public Page {
        items = List.copyOf(items);
    }

    /** A page with nothing after it. */
    public static <T> Page<T> last(List<T> items) {
        return new Page<>(items, null);
    }

    /** The same page with each item mapped, for an answer that shows the items differently. */
    public <R> Page<R> map(Function<? super T, ? extends R> f) {
        return new Page<>(items.stream().<R>map(f).toList(), nextCursor);
    }
}
