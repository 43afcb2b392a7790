package io.lifeline.domain.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one cursor format: what it makes reads back, and the cursors earlier releases gave out still read. */
class CursorTest {

    @Test
    void aCursorReadsBackItsParts() {
        assertThat(Cursor.longs(Cursor.of(61), 1)).containsExactly(61);
        assertThat(Cursor.longs(Cursor.of(1_772_352_240_000L, 1), 2)).containsExactly(1_772_352_240_000L, 1);
        assertThat(Cursor.longs(Cursor.of(-5L, Long.MIN_VALUE), 2)).containsExactly(-5L, Long.MIN_VALUE);
        assertThat(Cursor.parts(Cursor.of("2026-03-01T08:04:00.123456Z", 42), 2))
                .containsExactly("2026-03-01T08:04:00.123456Z", "42");
    }

    @Test
    void aCursorIsOpaqueAndSafeInAUrl() {
        String c = Cursor.of(1_772_352_240_000L, 1);
        assertThat(c).matches("[A-Za-z0-9_-]+").doesNotContain(":");
        assertThat(c.charAt(0)).isNotIn('-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9');
    }

    @Test
    void theCursorsEarlierReleasesGaveOutStillRead() {
        // Actions and a job's incidents and checkpoints: a bare number.
        assertThat(Cursor.longs("61", 1)).containsExactly(61);
        // A job's timeline: event time in milliseconds and sequence, joined by a colon.
        assertThat(Cursor.longs("1772352240000:1", 2)).containsExactly(1_772_352_240_000L, 1);
        assertThat(Cursor.longs("-1000:3", 2)).containsExactly(-1000, 3);
        // The event log: base64url of "time|seq", which is this format already.
        String events = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("2026-03-01T08:04:00Z|123".getBytes(StandardCharsets.UTF_8));
        assertThat(Cursor.parts(events, 2)).containsExactly("2026-03-01T08:04:00Z", "123");
        assertThat(Cursor.of("2026-03-01T08:04:00Z", 123)).isEqualTo(events);
    }

    @Test
    void anythingElseIsRefusedWithOneMessage() {
        for (String bad : List.of(
                "",
                "nope",
                "1:x",
                "1 OR 1=1",
                "'; DROP TABLE event_log; --",
                "1:2:3",
                "::",
                "99999999999999999999",
                "%%%",
                "a".repeat(600))) {
            assertThatThrownBy(() -> Cursor.longs(bad, bad.contains(":") ? 2 : 1))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("not a cursor this API gave out");
        }
        assertThatThrownBy(() -> Cursor.longs(Cursor.of(1, 2), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cursor.longs(Cursor.of("x", 2), 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cursor.parts(null, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPartMayNotHoldTheSeparator() {
        assertThatThrownBy(() -> Cursor.of("a|b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cursor.of()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPageMapsItsItemsAndKeepsItsCursor() {
        Page<Integer> p = new Page<>(List.of(1, 2), Cursor.of(2));
        assertThat(p.map(i -> "#" + i)).isEqualTo(new Page<>(List.of("#1", "#2"), Cursor.of(2)));
        assertThat(Page.last(List.of(1)).nextCursor()).isNull();
    }
}
