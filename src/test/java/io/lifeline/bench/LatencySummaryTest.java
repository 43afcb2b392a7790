package io.lifeline.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

    private static long[] millis(long... ms) {
        return LongStream.of(ms).map(m -> m * 1_000_000).toArray();
    }

    @Test
    void nearestRankOfOneToAHundredIsTheValueAtThatRank() {
        LatencySummary s = new LatencySummary(
                millis(LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray()));
        assertEquals(100, s.count());
        assertEquals(50.0, s.percentileMs(0.50));
        assertEquals(99.0, s.percentileMs(0.99));
        assertEquals(100.0, s.percentileMs(1.0));
        assertEquals(100.0, s.maxMs());
    }

    @Test
    void aRankThatFloatingPointPutsAboveAWholeNumberIsNotRoundedUp() {
        // 0.07 * 100 is 7.000000000000001 in doubles: the 7th value, not the 8th.
        LatencySummary s =
                new LatencySummary(millis(LongStream.rangeClosed(1, 100).toArray()));
        assertEquals(7.0, s.percentileMs(0.07));
    }

    @Test
    void theP99OfFewerThanAHundredIsTheLargest() {
        LatencySummary s = new LatencySummary(millis(5, 1, 9, 3));
        assertEquals(9.0, s.percentileMs(0.99));
        assertEquals(3.0, s.percentileMs(0.50));
    }

    @Test
    void noValuesGiveZeroAndAPercentileOutsideTheRangeIsRefused() {
        assertEquals(0.0, new LatencySummary(new long[0]).percentileMs(0.99));
        assertThrows(IllegalArgumentException.class, () -> new LatencySummary(millis(1)).percentileMs(0));
        assertThrows(IllegalArgumentException.class, () -> new LatencySummary(millis(1)).percentileMs(1.5));
    }
}
