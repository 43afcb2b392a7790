package io.lifeline.domain.job.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecentIdsTest {

    @Test
    void anIdentitySeenBeforeIsADuplicateAndTheSameIdFromAnotherSourceIsNot() {
        RecentIds ids = new RecentIds(8);
        assertThat(ids.add("k8s", "e1")).isTrue();
        assertThat(ids.add("k8s", "e1")).isFalse();
        assertThat(ids.add("dcgm", "e1")).isTrue();
        assertThat(ids.size()).isEqualTo(2);
    }

    @Test
    void theOldestIsForgottenFirstOnceFullAndKeysComeOldestFirst() {
        RecentIds ids = new RecentIds(40);
        for (int i = 0; i < 100; i++) {
            assertThat(ids.add("s", "e" + i)).isTrue();
        }
        assertThat(ids.size()).isEqualTo(40);
        List<String> expected = new ArrayList<>();
        for (int i = 60; i < 100; i++) {
            expected.add("s\ne" + i);
        }
        assertThat(ids.keys()).containsExactlyElementsOf(expected);
        // Forgotten: accepted again, which forgets the oldest held (e60).
        assertThat(ids.add("s", "e59")).isTrue();
        assertThat(ids.add("s", "e99")).isFalse();
        assertThat(ids.keys().get(0)).isEqualTo("s\ne61");
        assertThat(ids.keys().get(39)).isEqualTo("s\ne59");
        assertThat(ids.add("s", "e60")).isTrue();
    }

    @Test
    void keysBeforeTheRingIsFullAreInArrivalOrder() {
        RecentIds ids = new RecentIds(512);
        for (int i = 0; i < 20; i++) {
            ids.add("s", "e" + i);
        }
        assertThat(ids.keys()).hasSize(20).startsWith("s\ne0").endsWith("s\ne19");
    }

    @Test
    void restoredKeysAreDuplicatesAgainAndASmallerCapacityKeepsTheNewest() {
        RecentIds saved = new RecentIds(30);
        for (int i = 0; i < 45; i++) {
            saved.add("s", "e" + i);
        }
        RecentIds same = new RecentIds(30);
        same.restore(saved.keys());
        assertThat(same.keys()).isEqualTo(saved.keys());
        assertThat(same.add("s", "e44")).isFalse();

        RecentIds smaller = new RecentIds(10);
        smaller.restore(saved.keys());
        assertThat(smaller.keys()).isEqualTo(saved.keys().subList(20, 30));
        assertThat(smaller.add("s", "e34")).isTrue();
        assertThat(smaller.add("s", "e44")).isFalse();
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> new RecentIds(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
