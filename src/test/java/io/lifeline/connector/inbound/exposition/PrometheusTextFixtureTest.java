package io.lifeline.connector.inbound.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lifeline.testing.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The two Prometheus documentation examples in {@code fixtures/prometheus/}, parsed leniently. */
class PrometheusTextFixtureTest {

    @Test
    void preUtf8DocsExampleParsesCleanly() {
        Exposition e = ExpositionParser.parse(
                Fixtures.bytes("prometheus/text_format_0.0.4_docs_example_pre_utf8.prom"), Format.PROMETHEUS_TEXT);

        assertThat(e.errors()).isEmpty();
        assertDocsSamples(e);
    }

    /**
     * The current docs example has {@code {"my.dotted.metric", "error.message"="Not Found"}} with no value on
     * line 10. Our choice: that line is reported as an error (missing value) and every other sample is kept,
     * where Prometheus itself would refuse the whole scrape.
     */
    @Test
    void utf8DocsExampleReportsTheValuelessQuotedLineAndKeepsTheRest() {
        Exposition e = ExpositionParser.parse(
                Fixtures.bytes("prometheus/text_format_0.0.4_docs_example.prom"), Format.PROMETHEUS_TEXT);

        assertThat(e.errors())
                .extracting(ParseError::line, ParseError::message)
                .containsExactly(tuple(10, "missing value for my.dotted.metric"));
        assertThat(e.isValid()).isFalse();
        assertDocsSamples(e);
    }

    @Test
    void theQuotedSyntaxParsesWhenItHasAValue() {
        Exposition e = ExpositionParser.parse(
                "{\"my.dotted.metric\", \"error.message\"=\"Not Found\"} 3\n", Format.PROMETHEUS_TEXT);

        assertThat(e.errors()).isEmpty();
        Sample s = e.samples().get(0);
        assertThat(s.name()).isEqualTo("my.dotted.metric");
        assertThat(s.label("error.message")).isEqualTo("Not Found");
        assertThat(s.value()).isEqualTo(3.0);
    }

    private static void assertDocsSamples(Exposition e) {
        List<Sample> samples = e.samples();
        assertThat(samples).hasSize(20);

        Sample first = samples.get(0);
        assertThat(first.name()).isEqualTo("http_requests_total");
        assertThat(first.labels().asMap())
                .containsExactly(
                        org.assertj.core.api.Assertions.entry("method", "post"),
                        org.assertj.core.api.Assertions.entry("code", "200"));
        assertThat(first.value()).isEqualTo(1027.0);
        assertThat(first.timestampMillis()).isEqualTo(1395066363000L);
        assertThat(samples.get(1).value()).isEqualTo(3.0);
        assertThat(samples.get(1).label("code")).isEqualTo("400");

        Sample escaped = samples.get(2);
        assertThat(escaped.name()).isEqualTo("msdos_file_access_time_seconds");
        assertThat(escaped.label("path")).isEqualTo("C:\\DIR\\FILE.TXT");
        assertThat(escaped.label("error")).isEqualTo("Cannot find file:\n\"FILE.TXT\"");
        assertThat(escaped.value()).isEqualTo(1.458255915e9);
        assertThat(escaped.hasTimestamp()).isFalse();

        assertThat(samples.get(3).name()).isEqualTo("metric_without_timestamp_and_labels");
        assertThat(samples.get(3).value()).isEqualTo(12.47);

        Sample weird = samples.get(4);
        assertThat(weird.label("problem")).isEqualTo("division by zero");
        assertThat(weird.value()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(weird.timestampMillis()).isEqualTo(-3982045L);

        assertThat(samples.subList(5, 11))
                .extracting(s -> s.label("le"), Sample::value)
                .containsExactly(
                        tuple("0.05", 24054.0),
                        tuple("0.1", 33444.0),
                        tuple("0.2", 100392.0),
                        tuple("0.5", 129389.0),
                        tuple("1", 133988.0),
                        tuple("+Inf", 144320.0));
        assertThat(samples.get(11).name()).isEqualTo("http_request_duration_seconds_sum");
        assertThat(samples.get(11).value()).isEqualTo(53423.0);
        assertThat(samples.get(12).name()).isEqualTo("http_request_duration_seconds_count");
        assertThat(samples.get(12).value()).isEqualTo(144320.0);

        assertThat(samples.get(17).name()).isEqualTo("rpc_duration_seconds");
        assertThat(samples.get(17).label("quantile")).isEqualTo("0.99");
        assertThat(samples.get(17).value()).isEqualTo(76656.0);
        assertThat(samples.get(18).value()).isEqualTo(1.7560473e+07);
        assertThat(samples.get(19).value()).isEqualTo(2693.0);

        assertThat(e.metadata("http_requests_total"))
                .isEqualTo(new MetricMetadata(
                        "http_requests_total", MetricType.COUNTER, "The total number of HTTP requests.", null));
        assertThat(e.metadata("http_request_duration_seconds").type()).isEqualTo(MetricType.HISTOGRAM);
        assertThat(e.metadata("rpc_duration_seconds").type()).isEqualTo(MetricType.SUMMARY);
        assertThat(e.metadata("rpc_duration_seconds").help()).isEqualTo("A summary of the RPC duration in seconds.");
    }
}
