package io.lifeline.connector.inbound.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Properties of the parser over generated input: it never throws, every sample line yields one sample or one error
 * (OpenMetrics: all or one error), and escaping round-trips.
 */
class ExpositionParserPropertiesTest {

    @Property(tries = 300)
    void anyTextIsParsedLineByLineInBothFormats(@ForAll("exposition-ish") String text) {
        ExpositionOracle.checkPrometheus(text, ExpositionParser.parse(text, Format.PROMETHEUS_TEXT));
        ExpositionOracle.checkOpenMetrics(ExpositionParser.parse(text, Format.OPENMETRICS));
    }

    @Property(tries = 300)
    void anyBytesAreParsedLineByLine(@ForAll @Size(max = 300) byte[] body) {
        String text = java.nio.charset.StandardCharsets.UTF_8
                .decode(java.nio.ByteBuffer.wrap(body))
                .toString();
        ExpositionOracle.checkPrometheus(text, ExpositionParser.parse(body, Format.PROMETHEUS_TEXT));
        ExpositionOracle.checkOpenMetrics(ExpositionParser.parse(body, Format.OPENMETRICS));
    }

    @Property(tries = 300)
    void escapedLabelValuesComeBackUnchanged(@ForAll("label-values") String value, @ForAll("names") String name) {
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        String text = "# TYPE " + name + " gauge\n" + name + "{v=\"" + escaped + "\"} 1.5\n# EOF\n";

        for (Format f : Format.values()) {
            Exposition e = ExpositionParser.parse(text, f);
            assertThat(e.errors()).as(f.name()).isEmpty();
            assertThat(e.samples()).singleElement().satisfies(s -> {
                assertThat(s.name()).isEqualTo(name);
                assertThat(s.label("v")).isEqualTo(value);
                assertThat(s.value()).isEqualTo(1.5);
            });
        }
    }

    @Property(tries = 300)
    void decimalValuesParseLikeJava(@ForAll("decimals") String decimal) {
        Exposition e = ExpositionParser.parse("m " + decimal + "\n", Format.PROMETHEUS_TEXT);

        assertThat(e.samples().get(0).value()).isEqualTo(Double.parseDouble(decimal));
    }

    @Provide("exposition-ish")
    Arbitrary<String> expositionIsh() {
        Arbitrary<String> pieces = Arbitraries.of(List.of(
                "# HELP ",
                "# TYPE ",
                "# UNIT ",
                "# EOF",
                "\n",
                " ",
                "{",
                "}",
                "=",
                "\"",
                "\\",
                ",",
                "a",
                "a_total",
                "a_bucket",
                "le",
                "+Inf",
                "NaN",
                "1",
                "-2.5e3",
                "#",
                "counter",
                "gauge",
                "histogram",
                "\t",
                "\r",
                "é",
                "{\"x.y\"",
                "quantile",
                // Whole lines too, so that many texts hold samples and not only errors.
                "\na 1\n",
                "\na{le=\"1\"} NaN\n",
                "\na_total 2 1000\n",
                "\n# TYPE a counter\n",
                "\n# EOF\n"));
        return pieces.list().ofMaxSize(40).map(l -> String.join("", l));
    }

    @Provide("label-values")
    Arbitrary<String> labelValues() {
        return Arbitraries.strings().withChars("ab \\\"\n#{}=,é☃").ofMaxLength(20);
    }

    @Provide("names")
    Arbitrary<String> names() {
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('_')
                .ofMinLength(1)
                .ofMaxLength(12)
                .filter(n -> !n.endsWith("_total")
                        && !n.endsWith("_bucket")
                        && !n.endsWith("_count")
                        && !n.endsWith("_sum")
                        && !n.endsWith("_created")
                        && !n.endsWith("_info"));
    }

    @Provide("decimals")
    Arbitrary<String> decimals() {
        Arbitrary<String> ints = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(20);
        Arbitrary<String> fracs = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(20);
        Arbitrary<String> sign = Arbitraries.of("", "-", "+");
        Arbitrary<String> exp = Arbitraries.of("", "e5", "E-7", "e+300", "e-320");
        return net.jqwik.api.Combinators.combine(sign, ints, fracs, exp)
                .as((s, i, f, x) -> s + i + (f.isEmpty() ? "" : "." + f) + x);
    }
}
