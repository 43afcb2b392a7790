package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OwnRangesTest {

    private final OwnRanges ranges = new OwnRanges();

    @Test
    void adjacentAndOverlappingRangesAreJoinedWhateverOrderTheyComeIn() {
        ranges.add(10, 19);
        ranges.add(30, 39);
        ranges.add(20, 29);
        ranges.add(5, 12);
        assertThat(ranges.size()).isEqualTo(1);
        assertThat(ranges.after(0)).containsExactly(5, 39);
    }

    @Test
    void aGapKeepsRangesApartAndTheFirstReachingPastTheCursorIsGiven() {
        ranges.add(10, 19);
        ranges.add(25, 29);
        assertThat(ranges.after(0)).containsExactly(10, 19);
        assertThat(ranges.after(15)).containsExactly(10, 19);
        // Wholly passed: forgotten.
        assertThat(ranges.after(19)).containsExactly(25, 29);
        assertThat(ranges.size()).isEqualTo(1);
        assertThat(ranges.after(29)).isNull();
        assertThat(ranges.size()).isZero();
    }

    @Test
    void anEmptyRangeIsIgnored() {
        ranges.add(5, 4);
        assertThat(ranges.after(0)).isNull();
    }
}
