package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The positional RFC 3339 reader accepts exactly what the former pattern-and-formatter reader accepted. */
class Rfc3339Test {

    private static final List<String> SEEDS = List.of(
            "2026-01-31T12:00:00Z",
            "2026-01-31T13:00:00.250+01:00",
            "2024-02-29T23:59:59.999999999-05:30",
            "0000-01-01T00:00:00Z",
            "9999-12-31t23:59:59z",
            "2026-06-15T08:30:00.1+18:00",
            "2026-06-15T08:30:00-18:00",
            "  2026-06-15T08:30:00Z  ");

    @Test
    void readsTheUsualFormsToTheSameInstant() {
        assertThat(Rfc3339.parseOrNull("2026-01-31T13:00:00.250+01:00"))
                .isEqualTo(Instant.parse("2026-01-31T12:00:00.250Z"));
        assertThat(Rfc3339.parseOrNull("2024-02-29T23:59:59.999999999-05:30"))
                .isEqualTo(Instant.parse("2024-03-01T05:29:59.999999999Z"));
        assertThat(Rfc3339.parseOrNull("0000-01-01T00:00:00Z")).isEqualTo(Instant.parse("0000-01-01T00:00:00Z"));
    }

    @Test
    void refusesWhatIsNotRfc3339() {
        for (String bad : List.of(
                "2026-02-29T00:00:00Z",
                "2026-04-31T00:00:00Z",
                "2026-01-31T24:00:00Z",
                "2026-01-31T12:60:00Z",
                "2026-01-31T12:00:60Z",
                "2026-01-31T12:00Z",
                "2026-01-31T12:00:00",
                "2026-01-31T12:00:00+05",
                "2026-01-31T12:00:00.Z",
                "2026-01-31T12:00:00.1234567890Z",
                "2026-01-31T12:00:00+18:01",
                "2026-01-31T12:00:00+19:00",
                "2026-01-31 12:00:00Z",
                "2026-01-31T12:00:00Zx",
                "2026-1-31T12:00:00Z",
                "２０２６-01-31T12:00:00Z",
                "")) {
            assertThat(Rfc3339.parseOrNull(bad)).as(bad).isNull();
        }
    }

    @Test
    void agreesWithTheFormerReaderOnMutatedTimestamps() {
        Random random = new Random(20);
        String alphabet = "0123456789-:TtZz+.  x9";
        List<String> cases = new ArrayList<>(SEEDS);
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder(SEEDS.get(random.nextInt(SEEDS.size())));
            int edits = 1 + random.nextInt(3);
            for (int k = 0; k < edits && sb.length() > 0; k++) {
                int at = random.nextInt(sb.length());
                switch (random.nextInt(3)) {
                    case 0 -> sb.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> sb.deleteCharAt(at);
                    default -> sb.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            cases.add(sb.toString());
        }
        int accepted = 0;
        for (String s : cases) {
            Instant expected = Rfc3339.parseSlowly(s);
            assertThat(Rfc3339.parseOrNull(s)).as("'%s'", s).isEqualTo(expected);
            if (expected != null) {
                accepted++;
            }
        }
        // The mutations must reach valid timestamps too, or the comparison proves little.
        assertThat(accepted).isGreaterThan(10_000);
    }
}
