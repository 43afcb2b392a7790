package io.lifeline.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.TokenFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Searches the application log of the whole run (written to a file in tests) and the answers of every read endpoint
 * for tokens: the first admin token, every token {@link TestTokens} created, and anything shaped like a token.
 * A token is shown once, in the answer that creates it, and nowhere else.
 */
public final class TokenLeaks {

    private static final Pattern ANY_TOKEN = Pattern.compile("llt_[a-z2-7]{12}_[A-Za-z0-9_-]{43}");

    /** Read endpoints whose answers could carry a token if one leaked into stored data. */
    private static final List<String> READS = List.of(
            "/api/v1/events?limit=1000&order=desc",
            "/api/v1/nodes",
            "/api/v1/gpus",
            "/api/v1/fleet/health",
            "/api/v1/fleet/notices",
            "/api/v1/jobs",
            "/api/v1/goodput",
            "/api/v1/actions?limit=500",
            "/api/v1/audit?limit=1000",
            "/api/v1/policies",
            "/api/v1/alerts",
            "/api/v1/silences?expired=true",
            "/api/v1/tokens",
            "/api/v1/security/audit?limit=1000",
            "/api/v1/whoami",
            "/api/v1/connectors/kubernetes",
            "/api/v1/connectors/dcgm/endpoints",
            "/metrics");

    private TokenLeaks() {}

    /** The tokens of this run known to tests: the bootstrap admin token and all made by {@link TestTokens}. */
    public static Set<String> knownTokens() throws Exception {
        Set<String> out = new LinkedHashSet<>();
        String bootstrap = ConfigProvider.getConfig().getValue("lifeline.security.bootstrap-token-file", String.class);
        out.add(Files.readString(Path.of(bootstrap)).trim());
        out.addAll(TestTokens.createdSoFar());
        return out;
    }

    /** Fails when any of {@code tokens} (or their secret part), or anything shaped like a token, is logged or answered. */
    public static void assertNotLeaked(Set<String> tokens) throws Exception {
        List<String> secrets = new ArrayList<>();
        for (String t : tokens) {
            TokenFormat.Parsed p = TokenFormat.parse(t);
            secrets.add(p == null ? t : p.secret());
        }
        assertThat(secrets).as("tokens to search for").isNotEmpty();
        for (String path : READS) {
            String answer = given(TestTokens.asAdmin())
                    .urlEncodingEnabled(false)
                    .get(path)
                    .then()
                    .extract()
                    .asString();
            assertThat(ANY_TOKEN.matcher(answer).find())
                    .as("a token in the answer to GET %s", path)
                    .isFalse();
            for (String s : secrets) {
                assertThat(answer).as("GET %s", path).doesNotContain(s);
            }
        }
        String logFile = ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class);
        List<String> lines = Files.readAllLines(Path.of(logFile));
        assertThat(lines).as("the log file is written").isNotEmpty();
        for (String line : lines) {
            assertThat(ANY_TOKEN.matcher(line).find())
                    .as("a token in the log line %s", line)
                    .isFalse();
            for (String s : secrets) {
                assertThat(line).doesNotContain(s);
            }
        }
    }
}
