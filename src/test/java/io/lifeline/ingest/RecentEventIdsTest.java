package io.lifeline.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentEventIdsTest {

    @Test
    void secondSightingOfAnIdIsADuplicate() {
        RecentEventIds ids = new RecentEventIds(1000);
        assertThat(ids.add("src", "a")).isTrue();
        assertThat(ids.add("src", "a")).isFalse();
        assertThat(ids.add("other-src", "a")).isTrue();
    }

    @Test
    void oldestIdsAreForgottenBeyondCapacity() {
        RecentEventIds ids = new RecentEventIds(16 * 16);
        for (int i = 0; i < 100_000; i++) {
            ids.add("s", "id-" + i);
        }
        assertThat(ids.contains("s", "id-99999")).isTrue();
        assertThat(ids.contains("s", "id-0")).isFalse();
    }

    @Test
    void removedIdCanBeAddedAgainAndOthersSurviveTheRemoval() {
        RecentEventIds ids = new RecentEventIds(10_000);
        for (int i = 0; i < 5000; i++) {
            ids.add("s", "id-" + i);
        }
        for (int i = 0; i < 5000; i += 2) {
            ids.remove("s", "id-" + i);
        }
        for (int i = 0; i < 5000; i++) {
            assertThat(ids.contains("s", "id-" + i)).as("id-" + i).isEqualTo(i % 2 == 1);
        }
        assertThat(ids.add("s", "id-0")).isTrue();
    }
}
