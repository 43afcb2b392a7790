package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's timeline beyond its in-memory ring: the entries handed over for storage, and pages that merge memory with a
 * store (here a list filtered like the stored history's query) under one cursor.
 */
class TimelineHistoryTest {

    private static final int RING = 5;
    private static final JobsConfig SMALL = new JobsConfig(
            2.0,
            Duration.ofHours(1),
            Duration.ofMinutes(30),
            Duration.ofMinutes(5),
            100,
            100,
            100,
            RING,
            64,
            256,
            512,
            20,
            5000,
            20);

    private final JobDriver d = new JobDriver("ml/llm", SMALL);
    /** What a store of the drained entries holds. */
    private final List<JobTimelineEntry> stored = new ArrayList<>();

    private void update(String hms) {
        d.apply(d.event(hms, EventType.JOB_UPDATED, new JobData.Updated(null, null, null, 600L)));
        stored.addAll(d.jobs.drainTimeline());
    }

    /** The page the runtime gives: the slice merged with the store's answer to the same question. */
    private TimelinePage page(String cursor, int limit, java.time.Instant from, java.time.Instant to) {
        TimelineSlice s =
                d.jobs.timelineSlice("ml/llm", from, to, cursor, limit).orElseThrow();
        if (!s.needsStored()) {
            return s.page(List.of());
        }
        List<TimelineEntry> fromStore = stored.stream()
                .filter(r -> r.job().equals(s.job()) && r.incarnation() == s.incarnation())
                .map(JobTimelineEntry::entry)
                .filter(e ->
                        e.seq() < s.storedBelowSeq() && s.cursor().precedes(e) && TimelineSlice.inRange(e, from, to))
                .sorted(TimelineCursor.ORDER)
                .limit(limit + 1L)
                .toList();
        return s.page(fromStore);
    }

    private List<TimelineEntry> all(int limit, java.time.Instant from, java.time.Instant to) {
        List<TimelineEntry> out = new ArrayList<>();
        String cursor = null;
        do {
            TimelinePage p = page(cursor, limit, from, to);
            assertThat(p.entries().size()).isLessThanOrEqualTo(limit);
            out.addAll(p.entries());
            cursor = p.nextCursor();
        } while (cursor != null);
        return out;
    }

    @Test
    void drainHandsOverEachEntryOnceInSequence() {
        d.submit("10:00:00", 1, 2, 8, null);
        stored.addAll(d.jobs.drainTimeline());
        for (int i = 1; i <= 12; i++) {
            update(String.format("10:00:%02d", i));
        }
        assertThat(d.jobs.drainTimeline()).isEmpty();
        assertThat(stored)
                .extracting(r -> r.entry().seq())
                .containsExactlyElementsOf(
                        java.util.stream.LongStream.rangeClosed(1, 13).boxed().toList());
        assertThat(d.jobs.lostTimelineEntries()).isZero();
    }

    @Test
    void entriesThatLeftTheRingBeforeADrainAreCountedAsLost() {
        d.submit("10:00:00", 1, 2, 8, null);
        for (int i = 1; i <= 9; i++) {
            d.apply(d.event(
                    String.format("10:00:%02d", i),
                    EventType.JOB_UPDATED,
                    new JobData.Updated(null, null, null, 600L)));
        }
        assertThat(d.jobs.drainTimeline()).hasSize(RING);
        assertThat(d.jobs.lostTimelineEntries()).isEqualTo(10 - RING);
    }

    @Test
    void pagesContinueFromStoredIntoHeldEntriesInOneOrder() {
        d.submit("10:00:00", 1, 2, 8, null);
        stored.addAll(d.jobs.drainTimeline());
        for (int i = 1; i <= 20; i++) {
            update(String.format("10:00:%02d", i * 2));
        }
        // Late events: listed at their own time, between entries that left the ring long ago.
        update("10:00:05");
        update("10:00:31");
        List<TimelineEntry> expected = stored.stream()
                .map(JobTimelineEntry::entry)
                .sorted(TimelineCursor.ORDER)
                .toList();
        assertThat(expected).hasSize(23);
        for (int limit : new int[] {1, 2, 3, 7, 22, 23, 100}) {
            assertThat(all(limit, null, null)).as("limit %d", limit).isEqualTo(expected);
        }
        List<TimelineEntry> window = all(2, JobDriver.at("10:00:05"), JobDriver.at("10:00:32"));
        assertThat(window)
                .isEqualTo(expected.stream()
                        .filter(e -> TimelineSlice.inRange(e, JobDriver.at("10:00:05"), JobDriver.at("10:00:32")))
                        .toList());
        assertThat(window).hasSize(15);
    }

    @Test
    void pagesPastEverythingThatLeftTheRingNeedNoStore() {
        d.submit("10:00:00", 1, 2, 8, null);
        for (int i = 1; i <= 10; i++) {
            update(String.format("10:00:%02d", i));
        }
        assertThat(d.jobs.timelineSlice("ml/llm", null, null, null, 3)
                        .orElseThrow()
                        .needsStored())
                .isTrue();
        // The ring holds seconds 6..10; everything before it is at or before 10:00:05.
        String pastEvicted = JobDriver.at("10:00:06").toEpochMilli() + ":0";
        assertThat(d.jobs.timelineSlice("ml/llm", null, null, pastEvicted, 3)
                        .orElseThrow()
                        .needsStored())
                .isFalse();
        assertThat(d.jobs.timelineSlice("ml/llm", JobDriver.at("10:00:06"), null, null, 3)
                        .orElseThrow()
                        .needsStored())
                .isFalse();
        assertThat(new JobDriver("cv/small")
                        .submit("10:00:00", 1, 2, 8, null)
                        .jobs
                        .timelineSlice("cv/small", null, null, null, 3)
                        .orElseThrow()
                        .needsStored())
                .isFalse();
    }

    @Test
    void aNewIncarnationHasItsOwnHistory() {
        d.submit("10:00:00", 1, 2, 8, null);
        d.finished("10:30:00", JobData.Outcome.SUCCEEDED);
        stored.addAll(d.jobs.drainTimeline());
        d.submit("11:00:00", 1, 2, 8, null);
        stored.addAll(d.jobs.drainTimeline());
        assertThat(stored)
                .extracting(JobTimelineEntry::incarnation)
                .containsOnly(
                        JobDriver.at("10:00:00").toEpochMilli(),
                        JobDriver.at("11:00:00").toEpochMilli());
        assertThat(stored.get(stored.size() - 1).entry().seq()).isEqualTo(1);
        assertThat(d.jobs.timelineSlice("ml/llm", null, null, null, 10)
                        .orElseThrow()
                        .incarnation())
                .isEqualTo(JobDriver.at("11:00:00").toEpochMilli());
    }

    @Test
    void theCursorIsMillisThenSequence() {
        TimelineCursor c = TimelineCursor.parse("1700000000000:42");
        assertThat(c).isEqualTo(new TimelineCursor(1_700_000_000_000L, 42));
        assertThat(TimelineCursor.parse(c.toString())).isEqualTo(c);
        assertThat(TimelineCursor.parse(null)).isEqualTo(TimelineCursor.START);
        assertThatThrownBy(() -> TimelineCursor.parse("nope")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimelineCursor.parse("1:x")).isInstanceOf(IllegalArgumentException.class);
    }
}
