package io.lifeline.connector.inbound.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * What a parse of any text must look like, worked out from the lines alone. Prometheus text: every line that is not
 * blank and not a comment yields exactly one sample or one error, a comment at most one error, a blank line nothing.
 * OpenMetrics: either no error, or exactly one and nothing else kept.
 */
final class ExpositionOracle {

    private ExpositionOracle() {}

    static void checkPrometheus(String text, Exposition e) {
        List<String> lines = lines(text);
        int content = 0;
        List<Integer> errorLines = new ArrayList<>();
        e.errors().forEach(err -> errorLines.add(err.line()));
        assertThat(errorLines)
                .as("at most one error per line, in line order")
                .isSorted()
                .doesNotHaveDuplicates();
        int contentErrors = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = strip(lines.get(i));
            boolean error = errorLines.contains(i + 1);
            if (l.isEmpty()) {
                assertThat(error).as("an error on blank line %d", i + 1).isFalse();
            } else if (l.charAt(0) != '#') {
                content++;
                contentErrors += error ? 1 : 0;
            }
        }
        assertThat(errorLines).allSatisfy(n -> assertThat(n).isBetween(1, lines.size()));
        assertThat(e.samples().size() + contentErrors)
                .as("one sample or one error per sample line")
                .isEqualTo(content);
        assertThat(e.samples()).allSatisfy(s -> assertThat(s.name()).isNotEmpty());
    }

    static void checkOpenMetrics(Exposition e) {
        if (!e.isValid()) {
            assertThat(e.errors())
                    .as("the first violation rejects the whole exposition")
                    .hasSize(1);
            assertThat(e.samples()).isEmpty();
            assertThat(e.metadata()).isEmpty();
        }
    }

    /** The lines as the parser sees them: separated by LF, without a last empty one. */
    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            out.add(text.substring(start, end));
            start = end + 1;
        }
        return out;
    }

    private static String strip(String line) {
        int end = line.endsWith("\r") ? line.length() - 1 : line.length();
        int i = 0;
        while (i < end && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return line.substring(i, end);
    }
}
