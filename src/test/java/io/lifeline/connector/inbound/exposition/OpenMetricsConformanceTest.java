package io.lifeline.connector.inbound.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of the official OpenMetrics parser conformance suite
 * ({@code fixtures/openmetrics/conformance_parsers/<case>/{metrics,test.json}}) through the strict parser and
 * checks that it accepts exactly the cases marked {@code shouldParse: true}.
 */
class OpenMetricsConformanceTest {

    /**
     * Cases the parser is allowed to disagree with, by name, with the reason. Empty: every case agrees. Keep it
     * that way; if an exotic case ever has to be listed here, say why.
     */
    private static final Map<String, String> OUT_OF_SCOPE = Map.of();

    private static final Pattern SHOULD_PARSE = Pattern.compile("\"shouldParse\"\\s*:\\s*(true|false)");
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([a-z]+)\"");

    @TestFactory
    Stream<DynamicTest> everyConformanceCaseAgreesWithTestJson() throws IOException {
        return cases().stream()
                .map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    @Test
    void theWholeSuiteIsPresent() throws IOException {
        List<Path> cases = cases();
        long good = cases.stream().filter(d -> expected(d)).count();
        assertThat(cases).hasSize(211);
        assertThat(good).isEqualTo(44);
    }

    private static void check(Path dir) throws IOException {
        String name = dir.getFileName().toString();
        String json = Files.readString(dir.resolve("test.json"));
        Matcher type = TYPE.matcher(json);
        assertThat(type.find() && type.group(1).equals("text"))
                .as("case type of %s", name)
                .isTrue();
        boolean shouldParse = expected(dir);
        byte[] body = Files.readAllBytes(dir.resolve("metrics"));
        Exposition result = ExpositionParser.parse(body, Format.OPENMETRICS);
        if (OUT_OF_SCOPE.containsKey(name)) {
            return;
        }
        assertThat(result.isValid())
                .as("%s: shouldParse=%s but errors=%s", name, shouldParse, result.errors())
                .isEqualTo(shouldParse);
        if (!shouldParse) {
            assertThat(result.samples()).isEmpty();
            assertThat(result.errors()).hasSize(1);
        }
    }

    private static boolean expected(Path dir) {
        try {
            Matcher m = SHOULD_PARSE.matcher(Files.readString(dir.resolve("test.json")));
            if (!m.find()) {
                throw new IllegalStateException("no shouldParse in " + dir);
            }
            return Boolean.parseBoolean(m.group(1));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> cases() throws IOException {
        try (Stream<Path> s = Files.list(Fixtures.path("openmetrics/conformance_parsers"))) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }
}
