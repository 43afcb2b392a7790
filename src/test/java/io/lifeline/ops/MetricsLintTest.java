package io.lifeline.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.DemoFleetProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} of a running Lifeline with the demo fleet passes {@code promtool check metrics} (Debian's
 * {@code prometheus} package, which CI installs) without a single finding: every series has HELP and TYPE, counters
 * end in {@code _total}, units are base units and in the names. promtool reads the text format, which is what a
 * scrape gets unless it asks for OpenMetrics only.
 */
@QuarkusTest
@TestProfile(DemoFleetProfile.class)
class MetricsLintTest {

    private static final File PROMTOOL = new File("/usr/bin/promtool");
    private static final Path HOME = Path.of("target", "metrics-lint");

    @Test
    void promtoolFindsNothingInTheTextFormat() throws Exception {
        String text = scrape("text/plain");
        assertThat(text)
                .contains(
                        "# TYPE lifeline_job_goodput_seconds_total counter",
                        "# TYPE lifeline_job_elapsed_seconds_total counter",
                        "# TYPE process_cpu_seconds_total counter",
                        "# HELP netty_eventexecutor_tasks_pending ",
                        "system_cpus ")
                .doesNotContain("system_cpu_count");
        assertThat(text)
                .containsPattern("lifeline_job_badput_seconds_total\\{job_name=\"[^\"]+\",job_namespace=\"[^\"]*\","
                        + "kind=\"lost_rework\",?}");
        assertThat(lint(text, "metrics.txt")).isEmpty();
    }

    @Test
    void aPlainScrapeIsTheTextFormatAndPromtoolFindsNothingInIt() throws Exception {
        // What `curl /metrics | promtool check metrics` reads: promtool parses the text format, not OpenMetrics.
        assertThat(lint(scrape("*/*"), "metrics-default.txt")).isEmpty();
    }

    /** The scrape once the demo fleet's jobs, incidents and goodput series are all there. */
    private static String scrape(String accept) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> given().header("Accept", accept).get("/metrics").asString(),
                        t -> t.contains("lifeline_job_badput_seconds_total{")
                                && t.contains("lifeline_job_state{")
                                && t.contains("lifeline_ingest_events_total{")
                                && t.contains("netty_allocator_"));
    }

    /** promtool's findings, one a line; empty when it has none (it exits 0 then). */
    private static String lint(String exposition, String name) throws Exception {
        assertThat(PROMTOOL.canExecute())
                .as("promtool is not installed: apt-get install prometheus (.ci/run does)")
                .isTrue();
        Files.createDirectories(HOME);
        Path file = HOME.resolve(name);
        Files.writeString(file, exposition);
        Process p = new ProcessBuilder(PROMTOOL.getPath(), "check", "metrics")
                .redirectInput(file.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("promtool check metrics on %s:%n%s", file, out)
                .isZero();
        return out.strip();
    }
}
