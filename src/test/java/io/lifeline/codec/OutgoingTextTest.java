package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutgoingTextTest {

    @Test
    void oneLineWritesEveryLineBreakAndControlCharacterAsAVisibleEscape() {
        String forged =
                "rejected\r\n2026-12-01 10:00:00.000 INFO  [io.li.se.AdminBootstrap] (main) token\u2028x\u001b[31m\u0085";
        String line = OutgoingText.oneLine(forged);
        assertThat(line)
                .doesNotContain("\n")
                .doesNotContain("\r")
                .doesNotContain("\u2028")
                .doesNotContain("\u001b")
                .doesNotContain("\u0085")
                .isEqualTo("rejected\\r\\n2026-12-01 10:00:00.000 INFO  [io.li.se.AdminBootstrap] (main) token\\u2028x"
                        + "\\u001b[31m\\u0085");
        assertThat(OutgoingText.oneLine(line)).as("idempotent").isEqualTo(line);
        assertThat(OutgoingText.oneLine("plain text, ünïcode")).isEqualTo("plain text, ünïcode");
        assertThat(OutgoingText.oneLine(null)).isNull();
    }

    @Test
    void slackEscapesTheThreeCharactersMrkdwnParsesAndKeepsOneLine() {
        assertThat(OutgoingText.slack("<!channel> & <http://x|disguised>"))
                .isEqualTo("&lt;!channel&gt; &amp; &lt;http://x|disguised&gt;");
        assertThat(OutgoingText.slack("a\nb")).isEqualTo("a\\nb");
        assertThat(OutgoingText.slack("*bold* job")).isEqualTo("*bold* job");
    }
}
