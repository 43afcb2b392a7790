package io.lifeline.domain.job.history;

import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What memory holds of one page of a job's incidents or checkpoints, paged from the newest back: the records created
 * before the cursor, newest {@code limit + 1} of them. Records with an ordinal below {@link #storedBelow()} are no
 * longer in memory and are read from the stored history; {@link #page(List)} merges them in.
 *
 * @param kind         incident or checkpoint
 * @param job          job name
 * @param incarnation  the job's incarnation
 * @param before       the page holds records with an ordinal below this ({@link Long#MAX_VALUE} for the first page)
 * @param limit        most records per page
 * @param held         records from memory before the cursor, oldest first, at most {@code limit + 1}
 * @param storedBelow  records with a lower ordinal left memory; 1 when memory holds them all
 * @param needsStored  whether stored records could be on this page
 * @param <T>          the view type
 */
public record HistorySlice<T>(
        HistoryRecord.Kind kind,
        String job,
        long incarnation,
        long before,
        int limit,
        List<Ordered<T>> held,
        long storedBelow,
        boolean needsStored) {

    /**
     * One record and its order of creation.
     *
     * @param ordinal  order of creation within the incarnation, from 1
     * @param view     the record
     * @param <T>      the view type
     */
    public record Ordered<T>(long ordinal, T view) {}

    /** The position before every record: the first page. */
    public static final long FIRST = Long.MAX_VALUE;

    /**
     * The ordinal a cursor names, {@link #FIRST} for null or empty.
     *
     * @throws IllegalArgumentException for a cursor that is not one a page gave out
     */
    public static long parse(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return FIRST;
        }
        long n = Cursor.longs(cursor, 1)[0];
        if (n < 1) {
            throw new IllegalArgumentException("not a cursor this API gave out");
        }
        return n;
    }

    /**
     * The page: memory's records merged with {@code stored} ones (ordinals below {@link #storedBelow()} and the
     * cursor, any order; memory's version wins), the newest {@code limit} of them oldest first, and a cursor when
     * older ones follow.
     */
    public Page<T> page(List<Ordered<T>> stored) {
        Map<Long, Ordered<T>> byOrdinal = new LinkedHashMap<>();
        for (Ordered<T> o : stored) {
            if (o.ordinal() < before && o.ordinal() < storedBelow) {
                byOrdinal.put(o.ordinal(), o);
            }
        }
        for (Ordered<T> o : held) {
            byOrdinal.put(o.ordinal(), o);
        }
        List<Ordered<T>> all = new ArrayList<>(byOrdinal.values());
        all.sort(Comparator.comparingLong(Ordered<T>::ordinal).reversed());
        // Memory alone may end where stored records begin: then older ones follow too.
        boolean more = all.size() > limit
                || !needsStored
                        && storedBelow > 1
                        && before > 1
                        && !all.isEmpty()
                        && all.get(Math.min(limit, all.size()) - 1).ordinal() == storedBelow;
        List<Ordered<T>> newest = all.size() > limit ? all.subList(0, limit) : all;
        List<T> items = new ArrayList<>(newest.size());
        for (int i = newest.size() - 1; i >= 0; i--) {
            items.add(newest.get(i).view());
        }
        String next = more ? Cursor.of(newest.get(newest.size() - 1).ordinal()) : null;
        return new Page<>(items, next);
    }

    /**
     * Memory's records before {@code before}, newest {@code limit + 1}, oldest first; {@code created} is how many
     * records the incarnation has created (the highest ordinal given out). A {@code limit} of 0 or less asks for what
     * memory holds and nothing stored: the page is memory's, with a cursor when older records are stored.
     */
    public static <T> HistorySlice<T> of(
            HistoryRecord.Kind kind,
            String job,
            long incarnation,
            long before,
            int limit,
            List<Ordered<T>> memory,
            long created) {
        List<Ordered<T>> held = new ArrayList<>();
        long lowest = Long.MAX_VALUE;
        for (Ordered<T> o : memory) {
            lowest = Math.min(lowest, o.ordinal());
            if (o.ordinal() < before) {
                held.add(o);
            }
        }
        held.sort(Comparator.comparingLong(Ordered<T>::ordinal));
        long storedBelow = memory.isEmpty() ? created + 1 : lowest;
        if (limit <= 0) {
            return new HistorySlice<>(
                    kind, job, incarnation, before, held.size(), List.copyOf(held), storedBelow, false);
        }
        if (held.size() > limit + 1) {
            held = held.subList(held.size() - limit - 1, held.size());
        }
        boolean needsStored = held.size() <= limit && storedBelow > 1 && before > 1;
        return new HistorySlice<>(kind, job, incarnation, before, limit, List.copyOf(held), storedBelow, needsStored);
    }
}
