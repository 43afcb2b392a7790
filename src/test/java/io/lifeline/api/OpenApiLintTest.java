package io.lifeline.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.testing.DemoFleetProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The served OpenAPI document ({@code /q/openapi}) passes Redocly's linter with its recommended rules, no error and
 * no warning. The linter is the real {@code @redocly/cli} from npm, run with Node; {@code .ci/browser-tools} installs
 * it (pinned) into {@code .tools}.
 */
@QuarkusTest
@TestProfile(DemoFleetProfile.class)
class OpenApiLintTest {

    private static final Path REDOCLY = Path.of(".tools", "node_modules", "@redocly", "cli", "bin", "cli.js");
    private static final Path HOME = Path.of("target", "openapi-lint");

    @Test
    void redoclyRecommendedRulesFindNothing() throws Exception {
        assertThat(Files.isRegularFile(REDOCLY))
                .as("@redocly/cli is not installed (%s is missing): run " + "`bash .ci/browser-tools`", REDOCLY)
                .isTrue();
        Files.createDirectories(HOME);
        Path doc = HOME.resolve("openapi.json");
        Files.writeString(
                doc,
                given().queryParam("format", "json")
                        .get("/q/openapi")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        Path config = HOME.resolve("redocly.yaml");
        Files.writeString(config, "extends:\n  - recommended\n");
        Path report = HOME.resolve("report.json");
        ProcessBuilder pb = new ProcessBuilder(
                        "node",
                        REDOCLY.toString(),
                        "lint",
                        "--config",
                        config.toString(),
                        "--format",
                        "json",
                        "--max-problems",
                        "500",
                        doc.toString())
                .redirectOutput(report.toFile())
                .redirectError(HOME.resolve("stderr.txt").toFile());
        // No telemetry and no update check: the linter runs offline.
        pb.environment().put("REDOCLY_TELEMETRY", "off");
        pb.environment().put("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true");
        pb.environment().put("NO_COLOR", "1");
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("redocly lint finished").isTrue();
        String out = Files.readString(report, StandardCharsets.UTF_8);
        JsonNode result = new ObjectMapper().readTree(out.substring(Math.max(0, out.indexOf('{'))));
        StringBuilder findings = new StringBuilder();
        for (JsonNode problem : result.path("problems")) {
            findings.append(problem.path("severity").asText())
                    .append(' ')
                    .append(problem.path("ruleId").asText())
                    .append(' ')
                    .append(problem.path("location").path(0).path("pointer").asText())
                    .append(": ")
                    .append(problem.path("message").asText())
                    .append('\n');
        }
        assertThat(findings.toString())
                .as("redocly lint findings (report in %s)", report)
                .isEmpty();
        assertThat(result.at("/totals/errors").asInt(-1)).isZero();
        assertThat(result.at("/totals/warnings").asInt(-1)).isZero();
        assertThat(p.exitValue()).as("redocly lint exit code").isZero();
    }
}
