package io.lifeline.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every real sample of the inbound formats is used by some test: a file added to {@code fixtures/dcgm},
 * {@code fixtures/cloud}, {@code fixtures/k8s}, {@code fixtures/torchelastic}, {@code fixtures/nvsentinel},
 * {@code fixtures/prometheus} or {@code fixtures/traces} that no
 * test names fails the build until a test consumes it (and asserts what Lifeline makes of it, through the read API or, for the Kubernetes
 * objects that belong to actions, the cluster the actions leave behind).
 */
class FixtureCoverageTest {

    private static final List<String> FOLDERS =
            List.of("dcgm", "cloud", "k8s", "torchelastic", "nvsentinel", "prometheus", "traces");
    private static final Path TESTS = Paths.get("src", "test", "java");

    @Test
    void everyConnectorFixtureIsNamedByATest() throws IOException {
        List<String> fixtures = new ArrayList<>();
        for (String folder : FOLDERS) {
            try (Stream<Path> files = Files.walk(Fixtures.path(folder))) {
                files.filter(Files::isRegularFile)
                        .map(p -> Fixtures.root().relativize(p).toString().replace('\\', '/'))
                        .forEach(fixtures::add);
            }
        }
        assertThat(fixtures).as("fixtures under %s", Fixtures.root()).hasSizeGreaterThanOrEqualTo(FOLDERS.size());
        String sources = testSources();
        List<String> unused =
                fixtures.stream().filter(f -> !sources.contains(f)).sorted().toList();
        assertThat(unused)
                .as("fixtures no test names by their path (e.g. \"dcgm/default-counters.csv\")")
                .isEmpty();
    }

    @Test
    void aFixtureNamedNowhereIsFound() throws IOException {
        assertThat(testSources())
                .contains("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl")
                .doesNotContain("k8s/" + "no-such-fixture.yaml");
    }

    /** All test sources but this class, which names the folders only. */
    private static String testSources() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(TESTS)) {
            files.filter(p -> p.toString().endsWith(".java")
                            && !p.getFileName().toString().equals("FixtureCoverageTest.java"))
                    .forEach(p -> {
                        try {
                            all.append(Files.readString(p)).append('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        }
        return all.toString();
    }
}
