package io.lifeline.it;

import static io.lifeline.it.DocChecks.has;
import static io.lifeline.it.DocChecks.is;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.lifeline.it.DocChecks.Expect;
import io.lifeline.testing.MarkdownDoc;
import io.lifeline.testing.MarkdownDoc.Command;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The commands the documents show, run as written: the quick start's and "Sending events"' curl lines of README.md
 * with real curl, and the lifelinectl examples of README.md and docs/cli.md with the real launcher, each in bash, taken
 * from the documents when the test runs. They run against the packaged application with the demo, started once for
 * all of them as DemoQuickStartIT starts it, in a fresh directory that holds {@code .lifeline/} and a link to
 * {@code ./lifelinectl}, as a checkout does. Only the port differs from the documents: curl lines get the test's port
 * in place of 8080, lifelinectl gets it through {@code LIFELINE_URL}; the token is the started application's own
 * {@code .lifeline/admin-token}, read by the documents' own {@code TOKEN=$(cat .lifeline/admin-token)}.
 *
 * <p>Every command of those blocks is checked by exactly one check here, which asserts what the prose around it
 * promises, or is listed as not run with the reason ({@link DocChecks}); a command the documents gain fails the test
 * until it is covered, and a check whose command the documents lost fails it too. curl's status is read through a
 * {@code .curlrc} that appends it to the answer ({@code write-out}), so that the lines themselves stay as written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DocumentedCommandsIT {

    private static final String DOC_URL = "http://localhost:8080";
    private static final String JOB = "vision/vit-g14-clip";
    private static final String NODE = "ondemand-p4d-0000";
    private static final Set<String> SHELL_BLOCKS = Set.of("sh", "bash", "shell", "console", "zsh");

    /** The quick start's command deliberately not run, and why. */
    private static final Map<String, String> QUICK_START_NOT_RUN = Map.of(
            "./lifeline",
            "the test starts the packaged "
                    + "application as ./lifeline does (java -jar with its embedded defaults and the demo) in a fresh directory, "
                    + "on a free port instead of 8080");

    /** docs/cli.md's commands deliberately not run, and why. */
    private static final Map<String, String> CLI_NOT_RUN = Map.of(
            "lifelinectl login --server "
                    + "https://lifeline.example.com --issuer https://idp.example.com/realms/ml --client-id lifelinectl",
            "needs the organisation's OpenID Connect provider; LoginTest signs in through the device-code and browser "
                    + "flows against a real provider",
            "lifelinectl stacks " + JOB + " --capture",
            "waits up to 30 s for trainers running the agent to answer with their stacks; HangCommandsTest (cli/) "
                    + "covers the request, the waiting and the output against a canned server");

    private static final MarkdownDoc README = MarkdownDoc.read(Path.of("README.md"));
    private static final MarkdownDoc CLI = MarkdownDoc.read(Path.of("docs", "cli.md"));

    private final ObjectMapper json = new ObjectMapper();
    private final YAMLMapper yaml = new YAMLMapper();
    private Path work;
    private LifelineProcess app;
    private Path curlHome;

    /** What an earlier line left for a later one to check. */
    private String checkpointNowAction;

    private String newCheckpoint;
    private List<String> nodeNames;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("documented-commands-it");
        app = LifelineProcess.start(work, work.resolve("lifeline.log"));
        app.awaitReady(Duration.ofSeconds(120));
        app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
        Files.createSymbolicLink(
                work.resolve("lifelinectl"), Path.of("lifelinectl").toAbsolutePath());
        curlHome = Files.createDirectories(work.resolve("curl"));
        Files.writeString(curlHome.resolve(".curlrc"), "write-out = \"\\n%{http_code}\"\n");
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    assertThat(json.readTree(app.get("/api/v1/jobs").body())
                                    .get("total")
                                    .asInt())
                            .isGreaterThanOrEqualTo(4);
                    assertThat(json.readTree(app.get("/api/v1/nodes").body())
                                    .get("total")
                                    .asInt())
                            .isGreaterThanOrEqualTo(32);
                });
    }

    @AfterAll
    void stop() throws Exception {
        if (app != null) {
            app.stop();
            app.close();
        }
    }

    private DocShell shell(String home) throws Exception {
        return new DocShell(work, Files.createDirectories(work.resolve(home)))
                .set("CURL_HOME", curlHome.toString())
                .set("LIFELINE_URL", "http://localhost:" + app.port());
    }

    // ------------------------------------------------------------------------------------------------ README.md

    /** README.md, "Quick start": the token, the two reads, the drain dry run, a checkpoint-now followed, the list. */
    @Test
    @Order(1)
    void quickStartCurlLines() throws Exception {
        DocShell sh = shell("home-quick-start");
        runEvery(
                commands(README, "Quick start"),
                QUICK_START_NOT_RUN,
                List.of(
                        is("TOKEN=$(cat .lifeline/admin-token)", c -> token(sh, c)),
                        has("/api/v1/jobs'", c -> {
                            Answer a = curl(sh, c);
                            assertThat(a.status()).as(a.toString()).isEqualTo(200);
                            assertThat(a.json().get("total").asInt())
                                    .as("the demo's jobs")
                                    .isGreaterThanOrEqualTo(4);
                            assertThat(names(a.json().get("items"))).contains(JOB);
                        }),
                        has("/api/v1/events?order=desc&limit=5", c -> {
                            Answer a = curl(sh, c);
                            assertThat(a.status()).as(a.toString()).isEqualTo(200);
                            List<Long> seqs = StreamSupport.stream(
                                            a.json().get("events").spliterator(), false)
                                    .map(e -> e.get("seq").asLong())
                                    .toList();
                            assertThat(seqs)
                                    .as("five events, newest first")
                                    .hasSize(5)
                                    .isSortedAccordingTo((x, y) -> Long.compare(y, x))
                                    .doesNotHaveDuplicates();
                        }),
                        has("\"dryRun\":true", c -> {
                            String before = nodeAndItsRequestedActions();
                            Answer a = curl(sh, c);
                            assertThat(a.status()).as(a.toString()).isEqualTo(200);
                            assertThat(a.json().get("dryRun").asBoolean()).isTrue();
                            assertThat(a.json().get("kind").asText()).isEqualTo("drain");
                            assertThat(a.json().at("/impact/nodes").toString()).isEqualTo("[\"" + NODE + "\"]");
                            // what it would cost: the jobs and ranks on the node (none while the demo's jobs are not
                            // placed yet)
                            assertThat(a.json().at("/impact/jobs").isArray())
                                    .as(a.toString())
                                    .isTrue();
                            assertThat(a.json().at("/impact/ranksAffected").isInt())
                                    .as(a.toString())
                                    .isTrue();
                            assertThat(a.json().at("/impact/gpuHoursAtRisk").isNumber())
                                    .as(a.toString())
                                    .isTrue();
                            assertThat(nodeAndItsRequestedActions())
                                    .as("a dry run changes nothing")
                                    .isEqualTo(before);
                        }),
                        has("Idempotency-Key: first-try", c -> checkpointNowWithItsKey(sh, c)),
                        has("/api/v1/actions?limit=5", c -> {
                            Answer a = curl(sh, c);
                            assertThat(a.status()).as(a.toString()).isEqualTo(200);
                            List<JsonNode> items = list(a.json().get("items"));
                            assertThat(items).hasSizeBetween(1, 5);
                            List<Instant> created = items.stream()
                                    .map(i -> Instant.parse(i.get("createdAt").asText()))
                                    .toList();
                            assertThat(created).as("newest first").isSortedAccordingTo((x, y) -> y.compareTo(x));
                            Instant ours = Instant.parse(
                                    action(checkpointNowAction).get("createdAt").asText());
                            assertThat(items.stream()
                                                    .anyMatch(i ->
                                                            i.get("id").asText().equals(checkpointNowAction))
                                            || created.stream().allMatch(t -> t.isAfter(ours)))
                                    .as("the checkpoint-now is listed, or only newer actions are: " + a)
                                    .isTrue();
                            assertThat(items)
                                    .as("the dry run left no drain behind")
                                    .noneMatch(i -> i.get("kind").asText().equals("drain")
                                            && !i.get("requestedBy").asText().startsWith("policy:"));
                        })));
    }

    /** README.md, "Command line: lifelinectl": its six lines, with the launcher linked as a checkout has it. */
    @Test
    @Order(2)
    void readmeCommandLine() throws Exception {
        DocShell sh = shell("home-readme");
        runEvery(
                commands(README, "Command line: lifelinectl"),
                Map.of(),
                List.of(
                        is("./lifelinectl get jobs", c -> getJobs(sh, c)),
                        is("./lifelinectl timeline " + JOB, c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(r.out())
                                    .contains("Timeline of " + JOB, "submitted", "rendezvous round 0: world size");
                            assertThat(r.out())
                                    .as("the checkpoint the quick start asked for")
                                    .contains("[ckpt] checkpoint " + newCheckpoint + " completed at step");
                        }),
                        is("./lifelinectl drain " + NODE + " --dry-run", c -> drainDryRun(sh, c)),
                        is("./lifelinectl checkpoint " + JOB + " --yes --wait", c -> checkpointWaits(sh, c)),
                        is("./lifelinectl install ~/.local/bin", c -> {
                            install(sh, c);
                            // "then: lifelinectl ..., kubectl lifeline ..."
                            assertThat(run(sh, "lifelinectl get jobs -o name").out())
                                    .contains("job/" + JOB);
                            assertThat(run(sh, "kubectl lifeline get jobs -o name")
                                            .out())
                                    .contains("job/" + JOB);
                        }),
                        is("source <(lifelinectl completion bash)", c -> {
                            // at the prompt: the function is defined, job and node names come from the server
                            Lifelinectl.Run r = run(sh, c.text() + "\ncomplete -p lifelinectl\n" + bashCompletes());
                            assertThat(r.out().lines()).contains("complete -F _lifelinectl lifelinectl", JOB, NODE);
                        })));
    }

    /** README.md, "Sending events": the notice is answered 2xx, and the answer names the event. */
    @Test
    @Order(9)
    void sendingEvents() throws Exception {
        DocShell sh = shell("home-events");
        Command token = commands(README, "Quick start").stream()
                .filter(c -> c.plain().startsWith("TOKEN="))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the quick start no longer sets TOKEN"));
        sh.keep(token.text());
        runEvery(commands(README, "Sending events"), Map.of(), List.of(has("\"id\":\"n17-notice-1\"", c -> {
            Answer a = curl(sh, c);
            assertThat(a.status()).as(a.toString()).isBetween(200, 299);
            assertThat(a.body()).as("the answer names the event").contains("n17-notice-1");
        })));
    }

    // ------------------------------------------------------------------------------------------------ docs/cli.md

    /** docs/cli.md: install, the plugin, contexts, login with a token, the actions and completion. */
    @Test
    @Order(3)
    void cliDoc() throws Exception {
        DocShell sh = shell("home-cli");
        DocShell config = shell("home-config");
        Path configFile = config.home().resolve(".config/lifeline/config.yaml");
        runEvery(
                commands(CLI, null),
                CLI_NOT_RUN,
                List.of(
                        is("./lifelinectl get jobs", c -> getJobs(sh, c)),
                        is("./lifelinectl install ~/.local/bin", c -> {
                            install(sh, c);
                            config.onPath(sh.home().resolve(".local/bin"));
                            configFromTheExample(config, configFile);
                        }),
                        is("lifelinectl get nodes", c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(r.out().lines().findFirst().orElseThrow())
                                    .startsWith("NAME")
                                    .contains("CORDONED", "NOTICE", "HEALTH");
                            nodeNames = firstColumn(r.out());
                            assertThat(nodeNames).contains(NODE);
                        }),
                        is("kubectl lifeline get nodes", c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(firstColumn(r.out()))
                                    .as("the same, as a kubectl plugin")
                                    .isEqualTo(nodeNames);
                        }),
                        has("config set-context prod", c -> {
                            ok(config, c);
                            JsonNode prod = context(configFile, "prod");
                            assertThat(prod.path("server").asText()).isEqualTo("https://lifeline.example.com");
                            assertThat(prod.path("token-file").asText())
                                    .as("the shell expands ~")
                                    .isEqualTo(config.home()
                                            .resolve(".lifeline-prod")
                                            .toString());
                            assertThat(prod.path("namespace").asText()).isEqualTo("vision");
                            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(configFile)))
                                    .as("written with mode 600")
                                    .isEqualTo("rw-------");
                        }),
                        is("lifelinectl config use-context prod", c -> {
                            ok(config, c);
                            assertThat(yaml.readTree(configFile.toFile())
                                            .path("current-context")
                                            .asText())
                                    .isEqualTo("prod");
                        }),
                        is("lifelinectl config get-contexts", c -> {
                            Lifelinectl.Run r = ok(config, c);
                            assertThat(r.out()).contains("local", "old");
                            assertThat(r.out()
                                            .lines()
                                            .filter(l -> l.contains("prod"))
                                            .findFirst()
                                            .orElseThrow())
                                    .as("the current context is marked")
                                    .contains("*");
                        }),
                        is("lifelinectl config view", c -> {
                            Lifelinectl.Run r = ok(config, c);
                            assertThat(r.out()).contains("prod", "https://lifeline.example.com");
                            assertThat(r.out()).as("tokens hidden").doesNotContain("llt_p2xq7ma3kd9e");
                        }),
                        is("lifelinectl config delete-context old", c -> {
                            ok(config, c);
                            assertThat(names(yaml.readTree(configFile.toFile()).get("contexts")))
                                    .doesNotContain("old")
                                    .contains("local", "prod");
                        }),
                        has("lifelinectl tokens create --name \"ada laptop\"", c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(r.out())
                                    .contains(
                                            "Logged in to http://localhost:" + app.port()
                                                    + " as ada laptop (operator, namespaces vision); saved as context \"vision\"");
                            JsonNode token =
                                    list(json.readTree(app.get("/api/v1/tokens").body())
                                                    .get("tokens"))
                                            .stream()
                                            .filter(t -> t.get("name").asText().equals("ada laptop"))
                                            .findFirst()
                                            .orElseThrow();
                            assertThat(token.get("role").asText()).isEqualTo("operator");
                            assertThat(token.get("namespaces").toString()).isEqualTo("[\"vision\"]");
                            assertThat(Instant.parse(token.get("expiresAt").asText()))
                                    .as("--expires-in 90d")
                                    .isBetween(
                                            Instant.now().plus(Duration.ofDays(89)),
                                            Instant.now().plus(Duration.ofDays(91)));
                            JsonNode who = json.readTree(run(sh, "lifelinectl --context vision whoami -o json")
                                    .out());
                            assertThat(who.get("name").asText()).isEqualTo("ada laptop");
                            assertThat(context(sh.home().resolve(".config/lifeline/config.yaml"), "vision")
                                            .path("token")
                                            .asText())
                                    .startsWith("llt_");
                        }),
                        is("lifelinectl logout", c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(r.out()).contains("Logged out of context \"vision\"");
                            JsonNode vision = context(sh.home().resolve(".config/lifeline/config.yaml"), "vision");
                            assertThat(vision.has("token") || vision.has("token-file") || vision.has("sso"))
                                    .as("credentials forgotten: " + vision)
                                    .isFalse();
                            assertThat(vision.path("server").asText())
                                    .as("server kept")
                                    .isEqualTo("http://localhost:" + app.port());
                        }),
                        is("lifelinectl hang " + JOB, c -> {
                            Lifelinectl.Run r = ok(sh, c);
                            assertThat(r.out()).contains("Job:", JOB, "State:", "Stalled:", "Suspects:");
                        }),
                        is("lifelinectl drain " + NODE + " --dry-run", c -> drainDryRun(sh, c)),
                        is("lifelinectl drain " + NODE, c -> {
                            String before = nodeAndItsRequestedActions();
                            Lifelinectl.Run r = sh.run(c.text(), "n\n", Duration.ofMinutes(1));
                            assertThat(r.code()).as("answered no\n" + r).isEqualTo(1);
                            assertThat(r.err())
                                    .contains(
                                            "What drain " + NODE + " would do:",
                                            "Drain node " + NODE + "? [y/N]",
                                            "nothing was done");
                            assertThat(nodeAndItsRequestedActions()).isEqualTo(before);
                        }),
                        is("lifelinectl checkpoint " + JOB + " --yes --wait --reason \"before the upgrade\"", c -> {
                            String id = checkpointWaits(sh, c);
                            assertThat(action(id).get("reason").asText()).isEqualTo("before the upgrade");
                        }),
                        is("source <(lifelinectl completion bash)", c -> {
                            // "in ~/.bashrc": an interactive bash reads it
                            Files.writeString(sh.home().resolve(".bashrc"), c.text() + "\n");
                            Lifelinectl.Run r =
                                    sh.exec(List.of("bash", "-i", "-c", bashCompletes()), "", Duration.ofMinutes(1));
                            assertThat(r.out().lines()).as(r.toString()).contains(JOB, NODE);
                        }),
                        is("source <(lifelinectl completion zsh)", c -> {
                            // "in ~/.zshrc, after compinit": an interactive zsh reads it; outside a completion widget
                            // compadd
                            // does not exist, so a stand-in prints what it is given
                            Files.writeString(
                                    sh.home().resolve(".zshrc"),
                                    "autoload -Uz compinit && compinit -u\n" + c.text() + "\n");
                            Lifelinectl.Run r = sh.exec(
                                    List.of(
                                            "zsh",
                                            "-i",
                                            "-c",
                                            "print -r -- \"comps: $_comps[lifelinectl]\"; "
                                                    + "compadd() { shift; print -l -- \"$@\"; }; words=(lifelinectl drain ondemand-p4d-00); "
                                                    + "CURRENT=3; _lifelinectl"),
                                    "",
                                    Duration.ofMinutes(1));
                            assertThat(r.code())
                                    .as("needs zsh (Debian: apt-get install zsh; .ci/run installs it)\n" + r)
                                    .isZero();
                            assertThat(r.out().lines()).as(r.toString()).contains("comps: _lifelinectl", NODE);
                        })));
    }

    // ------------------------------------------------------------------------------------------------ the checks

    private void token(DocShell sh, Command c) throws Exception {
        Lifelinectl.Run r = run(sh, c.text() + "\nprintf '%s' \"$TOKEN\"");
        Path file = work.resolve(".lifeline/admin-token");
        String token = Files.readString(file).trim();
        assertThat(r.out()).isEqualTo(token).startsWith("llt_");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .as("readable only by you")
                .isEqualTo("rw-------");
        String log = Files.readString(work.resolve("lifeline.log"));
        assertThat(log)
                .as("the log names the file, never the token")
                .contains(".lifeline/admin-token")
                .doesNotContain(token);
        sh.keep(c.text());
    }

    /**
     * The README's checkpoint-now: refused while the job is pending (as the README says), then accepted; its steps
     * show the request and then the new checkpoint; the same Idempotency-Key again answers the same action.
     */
    private void checkpointNowWithItsKey(DocShell sh, Command c) throws Exception {
        long giveUp = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        Answer a = curl(sh, c);
        int refusals = 0;
        while (a.status() == 400 && System.nanoTime() < giveUp) {
            assertThat(a.json().path("detail").asText())
                    .as("refused only while the job starts, as the README says: " + a)
                    .contains("job " + JOB + " is PENDING");
            refusals++;
            Thread.sleep(3_000);
            a = curl(sh, c);
        }
        System.out.printf("%s: refused %d times while %s was pending%n", c.where(), refusals, JOB);
        assertThat(a.status()).as(a.toString()).isEqualTo(201);
        String id = a.json().get("id").asText();
        assertThat(a.json().get("kind").asText()).isEqualTo("checkpoint-now");
        assertThat(a.json().get("reason").asText()).isEqualTo("try it");
        Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> List.of("succeeded", "failed", "cancelled")
                        .contains(action(id).get("state").asText()));
        JsonNode done = action(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("succeeded");
        List<JsonNode> steps = list(done.get("steps"));
        assertThat(steps).as(done.toString()).hasSize(2);
        assertThat(steps.get(0).get("name").asText()).isEqualTo("request checkpoint " + JOB);
        assertThat(steps.get(1).get("name").asText()).isEqualTo("await checkpoint " + JOB);
        assertThat(steps).allSatisfy(s -> assertThat(s.get("state").asText()).isEqualTo("done"));
        Instant asked = Instant.parse(done.get("createdAt").asText());
        JsonNode fresh =
                list(json.readTree(app.get("/api/v1/jobs/" + JOB + "/checkpoints")
                                        .body())
                                .get("checkpoints"))
                        .stream()
                        .filter(k -> List.of("completed", "verified")
                                        .contains(k.get("status").asText())
                                && Instant.parse(k.get("startedAt").asText()).isAfter(asked))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no checkpoint of " + JOB + " after " + asked));
        checkpointNowAction = id;
        newCheckpoint = fresh.get("id").asText();

        Answer again = curl(sh, c);
        assertThat(again.status()).as(again.toString()).isEqualTo(201);
        assertThat(again.json().get("id").asText())
                .as("the same Idempotency-Key answers the same action")
                .isEqualTo(id);
    }

    private void getJobs(DocShell sh, Command c) throws Exception {
        Lifelinectl.Run r = ok(sh, c);
        assertThat(r.out().lines().findFirst().orElseThrow())
                .startsWith("NAME")
                .contains("STATE", "WORLD", "CKPT AGE", "ETTR", "RESTARTS");
        assertThat(firstColumn(r.out())).contains(JOB);
    }

    /**
     * A dry-run drain: what docs/cli.md shows under "Actions" (the same lines, the same node, job and ranks; the
     * figures that change with time aside), and nothing changed.
     */
    private void drainDryRun(DocShell sh, Command c) throws Exception {
        String before = nodeAndItsRequestedActions();
        Lifelinectl.Run r = ok(sh, c);
        String shown = CLI.blocks("").stream()
                .map(MarkdownDoc.Block::text)
                .filter(t -> t.startsWith("Dry run of drain " + NODE))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/cli.md no longer shows a dry run's output"));
        assertThat(r.out().lines().findFirst().orElseThrow())
                .isEqualTo(shown.lines().findFirst().orElseThrow());
        Map<String, String> expected = fields(shown);
        Map<String, String> actual = fields(r.out());
        assertThat(List.copyOf(actual.keySet())).as(r.out()).containsSubsequence(List.copyOf(expected.keySet()));
        for (String same : List.of("Jobs affected", "Nodes", "Ranks affected")) {
            assertThat(actual.get(same)).as(same + " in\n" + r.out()).isEqualTo(expected.get(same));
        }
        assertThat(nodeAndItsRequestedActions()).as("a dry run changes nothing").isEqualTo(before);
    }

    /**
     * A checkpoint followed with --wait, to success. While the job cannot obey (starting, or shrinking for the demo's
     * co-location window) the command is refused or fails with the reason, exit 1, as docs/cli.md says; then it is
     * run again, as a person would.
     */
    private String checkpointWaits(DocShell sh, Command c) throws Exception {
        long giveUp = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        List<String> refused = new ArrayList<>();
        while (true) {
            Lifelinectl.Run r = sh.run(c.text(), "", Duration.ofMinutes(6));
            if (r.code() == 0) {
                assertThat(r.out())
                        .contains("request checkpoint " + JOB, "await checkpoint " + JOB, "Outcome:", "succeeded");
                String id = r.out()
                        .lines()
                        .filter(l -> l.startsWith("action act-"))
                        .findFirst()
                        .orElseThrow()
                        .split(" ")[1];
                assertThat(action(id).get("state").asText()).isEqualTo("succeeded");
                if (!refused.isEmpty()) {
                    System.out.printf(
                            "%s succeeded after %d refusals or failures: %s%n", c.where(), refused.size(), refused);
                }
                return id;
            }
            assertThat(r.code()).as(r.toString()).isEqualTo(1);
            assertThat(r.err() + r.out()).as("a refusal or failure says why").containsAnyOf("error: ", "failed");
            refused.add(
                    r.err().isBlank()
                            ? r.out().lines().reduce((x, y) -> y).orElse("")
                            : r.err().strip());
            assertThat(System.nanoTime())
                    .as("no checkpoint --wait succeeded within 5 minutes: " + refused)
                    .isLessThan(giveUp);
            Thread.sleep(5_000);
        }
    }

    /** {@code lifelinectl install ~/.local/bin}: the three links, to this checkout's launcher. */
    private void install(DocShell sh, Command c) throws Exception {
        Lifelinectl.Run r = ok(sh, c);
        Path bin = sh.home().resolve(".local/bin");
        assertThat(r.out()).contains("kubectl-lifeline", bin.toString(), "Add it to your PATH");
        Path launcher = Path.of("lifelinectl").toRealPath();
        for (String name : List.of("lifelinectl", "kubectl-lifeline", "kubectl_complete-lifeline")) {
            assertThat(Files.isSymbolicLink(bin.resolve(name))).as(name).isTrue();
            assertThat(bin.resolve(name).toRealPath()).as(name).isEqualTo(launcher);
        }
        sh.onPath(bin);
        assertThat(run(sh, "command -v kubectl || true").out())
                .as("kubectl lifeline needs kubectl (Debian: apt-get install kubernetes-client; .ci/run installs it)")
                .isNotBlank();
    }

    /** The config the documents' example shows, and a context "old" for {@code config delete-context old}. */
    private void configFromTheExample(DocShell config, Path file) throws Exception {
        String example = CLI.blocks("yaml").stream()
                .map(MarkdownDoc.Block::text)
                .filter(t -> t.startsWith("# ~/.config/lifeline/config.yaml"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/cli.md no longer shows a config file"));
        Files.createDirectories(file.getParent());
        Files.writeString(file, example);
        assertThat(run(config, "lifelinectl config get-contexts").out())
                .as("the example is read")
                .contains("local", "prod");
        run(config, "lifelinectl config set-context old --server http://old.example.com");
    }

    // ------------------------------------------------------------------------------------------------ support

    /** The shell commands of {@code doc}'s section (null: the whole document), in order. */
    private static List<Command> commands(MarkdownDoc doc, String section) {
        List<MarkdownDoc.Block> blocks = section == null ? doc.blocks() : doc.section(section);
        List<Command> out = blocks.stream()
                .filter(b -> SHELL_BLOCKS.contains(b.lang()))
                .flatMap(b -> b.commands().stream())
                .toList();
        assertThat(out)
                .as("shell commands in " + doc.file() + (section == null ? "" : " under " + section))
                .isNotEmpty();
        return out;
    }

    /** Runs the check of every command, in the document's order, once each command has its check (DocChecks). */
    private void runEvery(List<Command> commands, Map<String, String> notRun, List<Expect> expects) throws Exception {
        for (Map.Entry<Command, Expect> e :
                DocChecks.plan(commands, expects, notRun).entrySet()) {
            System.out.println(
                    "running " + e.getKey().where() + ": " + e.getKey().plain());
            e.getValue().check().run(e.getKey());
        }
        commands.stream()
                .filter(c -> notRun.containsKey(c.plain()))
                .forEach(c -> System.out.println(
                        "not run " + c.where() + ": " + c.plain() + " (" + notRun.get(c.plain()) + ")"));
    }

    /** curl's answer: the status the .curlrc appends, and the body. */
    private record Answer(int status, String body, JsonNode json) {
        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private Answer curl(DocShell sh, Command c) throws Exception {
        assertThat(c.text()).as(c.where()).contains(DOC_URL);
        Lifelinectl.Run r = sh.run(c.text().replace(DOC_URL, "http://localhost:" + app.port()));
        assertThat(r.code()).as(c.where() + "\n" + r).isZero();
        int nl = r.out().lastIndexOf('\n');
        assertThat(nl).as("curl's status after the body\n" + r).isNotNegative();
        String body = r.out().substring(0, nl);
        return new Answer(
                Integer.parseInt(r.out().substring(nl + 1).strip()),
                body,
                body.isBlank() ? json.nullNode() : json.readTree(body));
    }

    private static Lifelinectl.Run ok(DocShell sh, Command c) throws Exception {
        Lifelinectl.Run r = sh.run(c.text());
        assertThat(r.code()).as(c.where() + ": " + c.plain() + "\n" + r).isZero();
        return r;
    }

    private static Lifelinectl.Run run(DocShell sh, String command) throws Exception {
        Lifelinectl.Run r = sh.run(command);
        assertThat(r.code()).as(command + "\n" + r).isZero();
        return r;
    }

    /** Completes a job name and a node name through the bash function. */
    private static String bashCompletes() {
        return "COMP_WORDS=(lifelinectl describe job vision/); COMP_CWORD=3; _lifelinectl; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
                + "COMP_WORDS=(lifelinectl drain ondemand-p4d-00); COMP_CWORD=2; _lifelinectl; printf '%s\\n' \"${COMPREPLY[@]}\"";
    }

    /** Whether the node is cordoned, and the actions people (not policies) asked for on it. */
    private String nodeAndItsRequestedActions() throws Exception {
        JsonNode node = json.readTree(app.get("/api/v1/nodes/" + NODE).body());
        List<String> asked =
                list(json.readTree(app.get("/api/v1/actions?limit=500&target=" + NODE)
                                        .body())
                                .get("items"))
                        .stream()
                        .filter(a -> !a.get("requestedBy").asText().startsWith("policy:"))
                        .map(a -> a.get("id").asText() + " " + a.get("kind").asText())
                        .toList();
        return "cordoned=" + node.get("cordoned").asBoolean() + " actions=" + asked;
    }

    private JsonNode action(String id) throws Exception {
        return json.readTree(app.get("/api/v1/actions/" + id).body());
    }

    private JsonNode context(Path configFile, String name) throws Exception {
        String text = Files.readString(configFile);
        return list(yaml.readTree(text).get("contexts")).stream()
                .filter(c -> c.get("name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no context " + name + " in " + text));
    }

    private static List<JsonNode> list(JsonNode array) {
        assertThat(array).as("a JSON array").isNotNull();
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    private static List<String> names(JsonNode array) {
        return list(array).stream().map(n -> n.get("name").asText()).toList();
    }

    private static List<String> firstColumn(String table) {
        return table.lines().skip(1).map(l -> l.split("\\s+")[0]).toList();
    }

    private static final Pattern FIELD = Pattern.compile("^  ([A-Z][A-Za-z -]+):\\s+(.*)$");

    /** The "  Label:   value" lines of a dry run's output, in order. */
    private static Map<String, String> fields(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : text.lines().toList()) {
            Matcher m = FIELD.matcher(l);
            if (m.matches()) {
                out.put(m.group(1), m.group(2).strip());
            }
        }
        return out;
    }
}
