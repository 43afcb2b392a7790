package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.history.HistoryRecord;
import io.lifeline.domain.job.history.HistorySlice;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job's incidents and checkpoints beyond what memory keeps: the changed records handed over for storage (the
 * latest version of each kept, like the store's upsert), and pages from the newest back that merge memory with that
 * store under one cursor.
 */
class RecordHistoryTest {

    private static final int KEPT = 3;
    private static final JobsConfig SMALL = new JobsConfig(
            2.0,
            Duration.ofHours(1),
            Duration.ofMinutes(30),
            Duration.ofMinutes(5),
            KEPT,
            100,
            KEPT,
            500,
            64,
            256,
            512,
            20,
            5000,
            20);

    private final JobDriver d = new JobDriver("ml/llm", SMALL);
    /** What a store of the drained records holds: the latest version per (kind, id). */
    private final Map<String, HistoryRecord> stored = new LinkedHashMap<>();

    private void drain() {
        for (HistoryRecord r : d.jobs.drainRecords()) {
            stored.put(r.kind() + "/" + r.id(), r);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> List<HistorySlice.Ordered<T>> fromStore(HistorySlice<T> s) {
        return stored.values().stream()
                .filter(r -> r.kind() == s.kind() && r.job().equals(s.job()) && r.incarnation() == s.incarnation())
                .filter(r -> r.ordinal() < Math.min(s.before(), s.storedBelow()))
                .sorted(Comparator.comparingLong(HistoryRecord::ordinal).reversed())
                .limit(s.limit() + 1L)
                .map(r -> new HistorySlice.Ordered<>(r.ordinal(), (T) r.view()))
                .toList();
    }

    /** Every record, following the cursor back in time. */
    private <T> List<T> all(java.util.function.BiFunction<String, Integer, HistorySlice<T>> slice, int limit) {
        List<List<T>> pages = new ArrayList<>();
        String cursor = null;
        do {
            HistorySlice<T> s = slice.apply(cursor, limit);
            Page<T> p = s.page(s.needsStored() ? fromStore(s) : List.of());
            assertThat(p.items().size()).isLessThanOrEqualTo(Math.max(limit, KEPT + 1));
            pages.add(0, p.items());
            cursor = p.nextCursor();
            assertThat(pages).hasSizeLessThan(100);
        } while (cursor != null);
        List<T> out = new ArrayList<>();
        pages.forEach(out::addAll);
        return out;
    }

    private void cycles(int n) {
        d.runningOn(1, "10:00:00");
        drain();
        for (int i = 1; i <= n; i++) {
            String m = String.format("10:%02d:", i * 2);
            d.checkpointStarted(m + "00", "c" + i, i * 100L, false);
            drain();
            d.checkpointCompleted(m + "05", "c" + i, i * 100L, 5, 1, false);
            d.workerFailed(m + "20", 0, "n1")
                    .restarted(m + "30", i)
                    .rendezvous(m + "40", i + 1, 8, "n1")
                    .progress(m + "50", i * 100L + 50);
            drain();
        }
    }

    @Test
    void checkpointsArePagedBackThroughTheStoreInTheirLatestState() {
        cycles(10);
        for (int limit : new int[] {1, 2, 4, 1000}) {
            List<CheckpointView> all =
                    all((c, l) -> d.jobs.checkpointSlice("ml/llm", c, l).orElseThrow(), limit);
            assertThat(all)
                    .as("limit %d", limit)
                    .extracting(CheckpointView::id)
                    .containsExactly("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10");
            // Handed over when started, then again when completed: the store holds the completed version.
            assertThat(all).extracting(CheckpointView::status).containsOnly(CheckpointStatus.COMPLETED);
        }
        // Without a limit: memory's, and a cursor to the older ones.
        HistorySlice<CheckpointView> memory =
                d.jobs.checkpointSlice("ml/llm", null, 0).orElseThrow();
        assertThat(memory.needsStored()).isFalse();
        Page<CheckpointView> p = memory.page(List.of());
        assertThat(p.items()).extracting(CheckpointView::id).containsExactly("c8", "c9", "c10");
        assertThat(p.nextCursor()).isEqualTo(Cursor.of(8));
    }

    @Test
    void closedIncidentsArePagedBackThroughTheStore() {
        cycles(7);
        assertThat(d.incidents()).hasSize(KEPT);
        List<IncidentView> all =
                all((c, l) -> d.jobs.incidentSlice("ml/llm", c, l).orElseThrow(), 2);
        assertThat(all)
                .extracting(IncidentView::id)
                .containsExactly("ml/llm#1", "ml/llm#2", "ml/llm#3", "ml/llm#4", "ml/llm#5", "ml/llm#6", "ml/llm#7");
        assertThat(all).allSatisfy(i -> assertThat(i.closedAt()).isNotNull());
        Page<IncidentView> memory =
                d.jobs.incidentSlice("ml/llm", null, 0).orElseThrow().page(List.of());
        assertThat(memory.items()).extracting(IncidentView::id).containsExactly("ml/llm#5", "ml/llm#6", "ml/llm#7");
        assertThat(memory.nextCursor()).isEqualTo(Cursor.of(5));
    }

    @Test
    void nothingIsHandedOverTwiceAndABadCursorIsRefused() {
        cycles(2);
        assertThat(d.jobs.drainRecords()).isEmpty();
        assertThatThrownBy(() -> d.jobs.incidentSlice("ml/llm", "x", 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.jobs.checkpointSlice("ml/llm", "0", 10))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
