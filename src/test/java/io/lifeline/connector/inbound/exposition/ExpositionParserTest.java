package io.lifeline.connector.inbound.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Edge cases of both formats that the fixtures do not cover. */
class ExpositionParserTest {

    @Test
    void prometheusTextIsLenientAboutWhitespaceCommasCarriageReturnsAndEof() {
        String text = "# a free comment\n"
                + "\n"
                + "  a_metric{x=\"1\",} \t 5 \r\n"
                + "b_metric { y = \"2\" , z=\"3\" } 6 1700000000000\n"
                + "# EOF\n";

        Exposition e = ExpositionParser.parse(text, Format.PROMETHEUS_TEXT);

        assertThat(e.errors()).isEmpty();
        assertThat(e.samples())
                .extracting(Sample::name, s -> s.labels().asMap(), Sample::value, Sample::timestampMillis)
                .containsExactly(
                        tuple("a_metric", java.util.Map.of("x", "1"), 5.0, Sample.NO_TIMESTAMP),
                        tuple("b_metric", java.util.Map.of("y", "2", "z", "3"), 6.0, 1700000000000L));
    }

    @Test
    void prometheusTextAcceptsNanAndInfinitiesInAnyCase() {
        Exposition e = ExpositionParser.parse("a NaN\nb +Inf\nc -Inf\nd inf\ne nan\n", Format.PROMETHEUS_TEXT);

        assertThat(e.errors()).isEmpty();
        assertThat(e.samples())
                .extracting(Sample::value)
                .containsExactly(
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY,
                        Double.POSITIVE_INFINITY,
                        Double.NaN);
    }

    @Test
    void aBadPrometheusLineIsReportedAndTheOthersAreKept() {
        String text = "good 1\n"
                + "bad{a=\"1\" 2\n"
                + "also_bad 0x10\n"
                + "float_ts 1 1.5\n"
                + "dup{a=\"1\",a=\"2\"} 1\n"
                + "# TYPE t nonsense\n"
                + "still_good 2\n";

        Exposition e = ExpositionParser.parse(text, Format.PROMETHEUS_TEXT);

        assertThat(e.samples()).extracting(Sample::name).containsExactly("good", "still_good");
        assertThat(e.errors()).extracting(ParseError::line).containsExactly(2, 3, 4, 5, 6);
        assertThat(e.errors().get(1).message()).isEqualTo("invalid value '0x10'");
        assertThat(e.errors().get(3).message()).isEqualTo("duplicate label a");
    }

    @Test
    void prometheusLabelValuesKeepUnknownEscapes() {
        Exposition e = ExpositionParser.parse("m{a=\"x\\ty\\\\z\\\"q\"} 1\n", Format.PROMETHEUS_TEXT);

        assertThat(e.samples().get(0).label("a")).isEqualTo("x\\ty\\z\"q");
    }

    @Test
    void prometheusHelpTextIsUnescaped() {
        Exposition e = ExpositionParser.parse(
                "# HELP m line one\\nline \\\\two\n# TYPE m untyped\nm 1\n", Format.PROMETHEUS_TEXT);

        assertThat(e.metadata("m").help()).isEqualTo("line one\nline \\two");
        assertThat(e.metadata("m").type()).isEqualTo(MetricType.UNKNOWN);
    }

    @Test
    void aSecondTypeLineForTheSameFamilyIsAnErrorAndTheFirstStays() {
        Exposition e = ExpositionParser.parse("# TYPE m gauge\n# TYPE m counter\nm 1\n", Format.PROMETHEUS_TEXT);

        assertThat(e.metadata("m").type()).isEqualTo(MetricType.GAUGE);
        assertThat(e.errors()).extracting(ParseError::line).containsExactly(2);
        assertThat(e.samples()).hasSize(1);
    }

    @Test
    void openMetricsTimestampsAreSecondsConvertedToMilliseconds() {
        String text = "# TYPE a gauge\na 1 1700000000.123\na 2 1.7000001e9\n# EOF\n";

        Exposition e = ExpositionParser.parse(text, Format.OPENMETRICS);

        assertThat(e.errors()).isEmpty();
        assertThat(e.samples()).extracting(Sample::timestampMillis).containsExactly(1700000000123L, 1700000100000L);
        assertThat(e.metadata("a").type()).isEqualTo(MetricType.GAUGE);
    }

    @Test
    void openMetricsNeedsEofButPrometheusTextDoesNot() {
        assertThat(ExpositionParser.parse("a 1\n", Format.OPENMETRICS).isValid())
                .isFalse();
        assertThat(ExpositionParser.parse("a 1\n", Format.PROMETHEUS_TEXT).isValid())
                .isTrue();
    }

    @Test
    void bytesAreReadAsUtf8() {
        byte[] body = "m{who=\"Zoë ☃\"} 1\n".getBytes(StandardCharsets.UTF_8);

        assertThat(ExpositionParser.parse(body, Format.PROMETHEUS_TEXT)
                        .samples()
                        .get(0)
                        .label("who"))
                .isEqualTo("Zoë ☃");
    }

    @Test
    void malformedUtf8RejectsOpenMetricsAndIsReplacedInPrometheusText() {
        byte[] body = {'m', '{', 'a', '=', '"', (byte) 0xC3, '"', '}', ' ', '1', '\n', '#', ' ', 'E', 'O', 'F', '\n'};

        assertThat(ExpositionParser.parse(body, Format.OPENMETRICS).errors())
                .singleElement()
                .satisfies(err -> assertThat(err.message()).startsWith("invalid UTF-8"));
        assertThat(ExpositionParser.parse(body, Format.PROMETHEUS_TEXT)
                        .samples()
                        .get(0)
                        .label("a"))
                .isEqualTo("\uFFFD");
    }

    @Test
    void aReusedParserReturnsTheSameStringInstancesForRepeatedValues() {
        ExpositionParser parser = new ExpositionParser();
        Sample first = parser.parseText("m{uuid=\"GPU-1\"} 1\n", Format.PROMETHEUS_TEXT)
                .samples()
                .get(0);
        Sample second = parser.parseText("m{uuid=\"GPU-1\"} 2\n", Format.PROMETHEUS_TEXT)
                .samples()
                .get(0);

        assertThat(second.label("uuid")).isSameAs(first.label("uuid"));
        assertThat(second.name()).isSameAs(first.name());
    }

    @Test
    void valuesAreParsedExactly() {
        Exposition e = ExpositionParser.parse(
                "a 16.365000\nb 0.000000\nc 455497156\nd 0.004656\ne 1.7560473e+07\nf -0.5\ng 123456789012345678901\n",
                Format.PROMETHEUS_TEXT);

        assertThat(e.samples())
                .extracting(Sample::value)
                .containsExactly(16.365, 0.0, 455497156.0, 0.004656, 1.7560473e7, -0.5, 1.2345678901234568e20);
    }

    @Test
    void contentTypePicksTheFormat() {
        assertThat(Format.fromContentType("application/openmetrics-text; version=1.0.0; charset=utf-8"))
                .isEqualTo(Format.OPENMETRICS);
        assertThat(Format.fromContentType("text/plain; version=0.0.4")).isEqualTo(Format.PROMETHEUS_TEXT);
        assertThat(Format.fromContentType(null)).isEqualTo(Format.PROMETHEUS_TEXT);
    }

    @Test
    void labelsCompareByContent() {
        assertThat(Labels.of("a", "1", "b", "2"))
                .isEqualTo(Labels.of("a", "1", "b", "2"))
                .isNotEqualTo(Labels.of("b", "2", "a", "1"));
        assertThat(Labels.of("a", "1").toString()).isEqualTo("{a=\"1\"}");
        assertThat(Labels.EMPTY.get("a")).isNull();
    }
}
