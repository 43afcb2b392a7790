package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code lifelinectl} as an operator uses it: the real launcher, run as a process, against the packaged application
 * with the demo fleet (started as DemoQuickStartIT starts it). Every command, its exit codes, {@code -o json} parsed
 * back, a dry-run drain's impact, a checkpoint followed with {@code --wait} to {@code succeeded}, a viewer refused,
 * an unreachable server, installation as the kubectl plugin, and completion from the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LifelinectlIT {

    private static final String JOB = "vision/vit-g14-clip";
    private static final String NODE = "ondemand-p4d-0000";

    private final ObjectMapper json = new ObjectMapper();
    private Path work;
    private LifelineProcess app;
    private Lifelinectl cli;
    private String viewerToken;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("lifelinectl-it");
        app = LifelineProcess.start(work, work.resolve("lifeline.log"));
        app.awaitReady(Duration.ofSeconds(120));
        Path tokenFile = work.resolve(".lifeline/admin-token");
        app.useToken(Files.readString(tokenFile).trim());
        Path config = work.resolve("home/.config/lifeline/config.yaml");
        Files.createDirectories(config.getParent());
        Files.writeString(
                config,
                "current-context: admin\ncontexts:\n- name: admin\n  server: " + app.url() + "\n  token-file: "
                        + tokenFile + "\n");
        cli = new Lifelinectl(work.resolve("home"), config);
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

    private Lifelinectl.Run ok(String... args) throws Exception {
        Lifelinectl.Run r = cli.run(args);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r).isZero();
        return r;
    }

    private JsonNode okJson(String... args) throws Exception {
        return json.readTree(ok(args).out());
    }

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.get("items").forEach(j -> names.add(j.get("name").asText()));
        return names;
    }

    @Test
    @Order(1)
    void listsAndFormats() throws Exception {
        Lifelinectl.Run table = ok("get", "jobs");
        assertThat(table.out().lines().findFirst().orElseThrow())
                .startsWith("NAME")
                .contains("STATE", "WORLD", "CKPT AGE", "ETTR", "RESTARTS");
        assertThat(table.out()).contains(JOB).doesNotContain("\u001b[");
        JsonNode jobs = okJson("get", "jobs", "-o", "json");
        assertThat(jobs.get("items").size()).isGreaterThanOrEqualTo(4);
        assertThat(jobs.at("/items/0/name").asText()).contains("/");
        JsonNode yaml =
                new YAMLMapper().readTree(ok("get", "jobs", "-o", "yaml").out());
        // The demo's jobs appear as its pods start: a later listing holds at least every job of an earlier one.
        assertThat(names(yaml)).containsAll(names(jobs));
        assertThat(ok("get", "jobs", "-o", "name").out().lines())
                .contains("job/" + JOB)
                .allMatch(l -> l.startsWith("job/"));
        assertThat(ok("get", "jobs", "-o", "wide").out()).contains("POOL", "CAPACITY", "LAST PROGRESS");
        assertThat(okJson("get", "jobs", "-n", "vision", "-o", "json").get("items"))
                .allSatisfy(j -> assertThat(j.get("namespace").asText()).isEqualTo("vision"));
        assertThat(names(okJson("get", "jobs", "-A", "-o", "json"))).containsAll(names(jobs));
        assertThat(okJson("get", "jobs", JOB, "-o", "json").get("name").asText())
                .isEqualTo(JOB);
        assertThat(okJson("get", "jobs", "vit-g14-clip", "-o", "json")
                        .get("name")
                        .asText())
                .as("a bare name")
                .isEqualTo(JOB);

        JsonNode nodes = okJson("get", "nodes", "-o", "json");
        assertThat(nodes.get("items").size()).isGreaterThanOrEqualTo(32);
        assertThat(ok("get", "nodes", "--pool", "spot-p5", "-o", "name").out().lines())
                .isNotEmpty()
                .allMatch(l -> l.startsWith("node/spot-p5-"));
        assertThat(ok("get", "nodes").out()).contains("CORDONED", "NOTICE", "HEALTH", NODE);
        assertThat(okJson("get", "gpus", "--node", NODE, "-o", "json").get("items"))
                .hasSize(8);
        assertThat(ok("get", "gpus", "--node", NODE).out()).contains("UTIL%", "TEMP");
        assertThat(okJson("get", "actions", "-o", "json").get("items").isArray())
                .isTrue();
        assertThat(ok("get", "actions", "-o", "wide").code()).isZero();
        JsonNode incidents = okJson("get", "incidents", "-o", "json");
        assertThat(incidents.get("items").isArray()).isTrue();
        assertThat(okJson("get", "incidents", JOB, "-o", "json").get("items").isArray())
                .isTrue();
        assertThat(okJson("get", "alerts", "-o", "json").get("items").isArray()).isTrue();
        assertThat(ok("get", "alerts", "--state", "firing").code()).isZero();
    }

    @Test
    @Order(2)
    void describeTimelineGoodputFreshnessAdvice() throws Exception {
        assertThat(ok("describe", "job", JOB).out())
                .contains(
                        "Name:", JOB, "World size:", "Checkpoint freshness:", "Goodput:", "Incidents:", "Checkpoints:");
        assertThat(okJson("describe", "job", JOB, "-o", "json")
                        .at("/summary/name")
                        .asText())
                .isEqualTo(JOB);
        assertThat(ok("describe", "node", NODE).out()).contains("Name:", NODE, "Cordoned:", "GPUs:", "XID history:");
        assertThat(okJson("describe", "node", NODE, "-o", "json").get("name").asText())
                .isEqualTo(NODE);

        Lifelinectl.Run timeline = ok("timeline", JOB);
        assertThat(timeline.out()).contains("Timeline of " + JOB, "TIME", "WORLD", "submitted");
        assertThat(ok("timeline", JOB, "--absolute").out())
                .containsPattern("20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        JsonNode tl = okJson("timeline", JOB, "-o", "json");
        assertThat(tl.get("entries").size()).isPositive();
        assertThat(tl.get("worldSizeSeries").isArray()).isTrue();

        assertThat(ok("goodput").out()).contains("ETTR", "LOST GPU-H");
        assertThat(okJson("goodput", "--by", "pool", "-o", "json").get("items").size())
                .isPositive();
        assertThat(okJson("goodput", JOB, "-o", "json").has("wallMillis")).isTrue();
        assertThat(ok("freshness").out()).contains("NEWEST CHECKPOINT", "OBJECTIVE", JOB);
        assertThat(okJson("freshness", JOB, "-o", "json").has("objectiveMillis"))
                .isTrue();
        assertThat(ok("advice", JOB).out()).contains("Recommended interval:", "Checkpoint cost C");
        assertThat(okJson("advice", JOB, "-o", "json").get("job").asText()).isEqualTo(JOB);
        assertThat(okJson("whoami", "-o", "json").get("role").asText()).isEqualTo("admin");
    }

    @Test
    @Order(3)
    void notFoundAndUsageErrors() throws Exception {
        Lifelinectl.Run noJob = cli.run("describe", "job", "nope/nope");
        assertThat(noJob.code()).as(noJob.toString()).isEqualTo(3);
        assertThat(noJob.err()).contains("no job named 'nope/nope'");
        assertThat(cli.run("describe", "node", "no-such-node").code()).isEqualTo(3);
        assertThat(cli.run("get", "nodes", "no-such-node").code()).isEqualTo(3);
        assertThat(cli.run("get", "actions", "act-00000000000000000000").code()).isEqualTo(3);
        assertThat(cli.run("cancel", "act-00000000000000000000", "--yes").code())
                .isEqualTo(3);
        assertThat(cli.run("policies", "get", "no-such-policy").code()).isEqualTo(3);
        assertThat(cli.run("timeline", "no-such-job").code()).isEqualTo(3);
        Lifelinectl.Run unknown = cli.run("get", "frobs");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("frobs");
        assertThat(cli.run("rescale", JOB).code()).as("--workers is required").isEqualTo(2);
        assertThat(cli.run("get", "jobs", "--state", "dancing").code())
                .as("the server refuses the filter")
                .isEqualTo(2);
        assertThat(cli.run("get", "jobs", "-o", "xml").code()).isEqualTo(2);
        assertThat(cli.run("--context", "nope", "get", "jobs").code()).isEqualTo(2);
        assertThat(cli.run().code()).isEqualTo(2);
        assertThat(ok("--help").out()).contains("Exit codes: 0 ok, 1 the action failed or was refused");
        assertThat(ok("--version").out()).startsWith("lifelinectl ");
    }

    @Test
    @Order(4)
    void dryRunsShowTheImpactAndChangeNothing() throws Exception {
        int before = okJson("get", "actions", "--target", NODE, "-o", "json")
                .get("items")
                .size();
        Lifelinectl.Run drain = ok("drain", NODE, "--dry-run", "--deadline", "2m");
        assertThat(drain.out())
                .contains(
                        "Dry run of drain " + NODE,
                        "Nodes:",
                        NODE,
                        "Ranks affected:",
                        "GPU-hours at risk:",
                        "Newest checkpoint:",
                        "Time for a checkpoint:");
        JsonNode dry = okJson("drain", NODE, "--dry-run", "-o", "json");
        assertThat(dry.get("dryRun").asBoolean()).isTrue();
        assertThat(dry.at("/impact/nodes/0").asText()).isEqualTo(NODE);
        assertThat(dry.at("/impact/ranksAffected").isInt()).isTrue();
        assertThat(ok("uncordon", NODE, "--dry-run").out()).contains("Dry run of uncordon " + NODE);
        // the demo's jobs may still be starting: then these dry runs are refused with the reason (exit 1)
        for (String[] args :
                new String[][] {{"checkpoint", JOB, "--dry-run"}, {"preempt", "recsys/dlrm-dcnv2", "--dry-run"}}) {
            Lifelinectl.Run r = cli.run(args);
            assertThat(r.code()).as(r.toString()).isIn(0, 1);
            assertThat(r.code() == 0 ? r.out() : r.err())
                    .contains(r.code() == 0 ? "Ranks affected:" : "error: Invalid request");
        }
        // refused dry runs name the field and exit 1
        Lifelinectl.Run rescale = cli.run("rescale", JOB, "--workers", "99", "--dry-run");
        assertThat(rescale.code()).as(rescale.toString()).isEqualTo(1);
        assertThat(rescale.err()).contains("params.workers");
        Lifelinectl.Run restore = cli.run("restore", JOB, "--checkpoint", "no-such-checkpoint", "--dry-run");
        assertThat(restore.code()).as(restore.toString()).isEqualTo(1);
        assertThat(restore.err()).contains("params.checkpointId");
        Lifelinectl.Run resume = cli.run("resume", JOB, "--dry-run");
        assertThat(resume.code()).as(resume.toString()).isIn(0, 1);
        // asked, answered no: nothing is done
        Lifelinectl.Run no = cli.run("n\n", Duration.ofMinutes(1), "drain", NODE);
        assertThat(no.code()).as(no.toString()).isEqualTo(1);
        assertThat(no.err())
                .contains("What drain " + NODE + " would do:", "Drain node " + NODE + "? [y/N]", "nothing was done");
        assertThat(cli.run("drain", NODE).code()).as("no answer at all is a no").isEqualTo(1);
        assertThat(okJson("get", "actions", "--target", NODE, "-o", "json")
                        .get("items")
                        .size())
                .isEqualTo(before);
    }

    /** The demo's jobs train a minute or two after launch; until then checkpoint-now is refused (400, exit 1). */
    @Test
    @Order(5)
    void checkpointWithWaitSucceedsOnceTheJobTrains() throws Exception {
        long giveUp = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        List<String> tried = new ArrayList<>();
        while (System.nanoTime() < giveUp) {
            for (String job : List.of(JOB, "research/mixtral-8x7b-sft", "speech/whisper-large-v3-ft")) {
                Lifelinectl.Run r = cli.run(
                        "", Duration.ofMinutes(4), "checkpoint", job, "--yes", "--wait", "--reason", "lifelinectl IT");
                if (r.code() == 0) {
                    assertThat(r.out()).contains("request checkpoint", "await checkpoint", "Outcome:", "succeeded");
                    String id = r.out()
                            .lines()
                            .filter(l -> l.startsWith("action act-"))
                            .findFirst()
                            .orElseThrow()
                            .split(" ")[1];
                    JsonNode a = okJson("get", "actions", id, "-o", "json");
                    assertThat(a.get("state").asText()).isEqualTo("succeeded");
                    assertThat(a.get("reason").asText()).isEqualTo("lifelinectl IT");
                    assertThat(ok("get", "actions", id).out()).contains("Steps:", "Outcome:");
                    JsonNode audit = okJson("audit", "--action", id, "-o", "json");
                    assertThat(audit.get("items"))
                            .anySatisfy(e -> assertThat(e.get("what").asText()).isEqualTo("action.succeeded"));
                    System.out.printf(
                            "lifelinectl checkpoint --wait on %s succeeded after %d refusals or failures, first: %s%n",
                            job, tried.size(), tried.isEmpty() ? "-" : tried.get(0));
                    return;
                }
                assertThat(r.code()).as(r.toString()).isEqualTo(1);
                assertThat(r.err() + r.out())
                        .as("a refusal or failure says why")
                        .containsAnyOf("error: ", "failed");
                tried.add(job + ": "
                        + (r.err().isBlank()
                                ? r.out().lines().reduce((a, b) -> b).orElse("")
                                : r.err().strip()));
            }
            Thread.sleep(3_000);
        }
        throw new AssertionError("no checkpoint --wait succeeded within 5 minutes: " + tried);
    }

    @Test
    @Order(6)
    void actionsForRealWithWaitCancelAndIdempotency() throws Exception {
        String node = "ondemand-p4d-0014";
        Lifelinectl.Run drain =
                cli.run("", Duration.ofMinutes(5), "drain", node, "--yes", "--wait", "--deadline", "2m");
        assertThat(drain.code()).as(drain.toString()).isIn(0, 1);
        if (drain.out().contains("action act-")) {
            assertThat(drain.out()).contains("cordon", "Outcome:");
        } else {
            assertThat(drain.err()).as("refused: held by a policy's action").contains("error: ");
        }
        Lifelinectl.Run uncordon = cli.run("", Duration.ofMinutes(2), "uncordon", node, "--yes", "--wait");
        assertThat(uncordon.code()).as(uncordon.toString()).isZero();
        assertThat(uncordon.out()).contains("succeeded");
        assertThat(okJson("get", "nodes", node, "-o", "json").get("cordoned").asBoolean())
                .isFalse();
        // a cordon alone: the node is cordoned and nothing is evicted
        Lifelinectl.Run cordon = cli.run("", Duration.ofMinutes(2), "cordon", node, "--yes", "--wait");
        assertThat(cordon.code()).as(cordon.toString()).isZero();
        assertThat(cordon.out()).contains("cordon " + node, "succeeded").doesNotContain("evict");
        assertThat(okJson("get", "nodes", node, "-o", "json").get("cordoned").asBoolean())
                .isTrue();
        Lifelinectl.Run back = cli.run("", Duration.ofMinutes(2), "uncordon", node, "--yes", "--wait");
        assertThat(back.code()).as(back.toString()).isZero();

        // the same key twice: one action
        String key = "it-" + System.nanoTime();
        Lifelinectl.Run first = cli.run("checkpoint", JOB, "--yes", "--idempotency-key", key, "-o", "json");
        if (first.code() == 0) {
            Lifelinectl.Run again = cli.run("checkpoint", JOB, "--yes", "--idempotency-key", key, "-o", "json");
            assertThat(again.code()).as(again.toString()).isZero();
            assertThat(again.err()).contains("already created this action");
            assertThat(json.readTree(again.out()).get("id").asText())
                    .isEqualTo(json.readTree(first.out()).get("id").asText());
            // cancel it (or learn it already ended)
            String id = json.readTree(first.out()).get("id").asText();
            Lifelinectl.Run cancel = cli.run("cancel", id, "--yes");
            assertThat(cancel.code()).as(cancel.toString()).isIn(0, 1);
            assertThat(cancel.out() + cancel.err()).containsAnyOf("cancelled", "cancel requested", "already ended");
        } else {
            assertThat(first.code()).as(first.toString()).isEqualTo(1);
            assertThat(first.err()).startsWith("error: ");
        }

        // preempt a training job, then resume it, each followed to its end
        String victim = null;
        for (JsonNode j :
                okJson("get", "jobs", "--state", "running", "-o", "json").get("items")) {
            if (!j.get("name").asText().equals(JOB)
                    && (victim == null || j.get("name").asText().startsWith("recsys/"))) {
                victim = j.get("name").asText();
            }
        }
        assertThat(victim).as("a running job besides " + JOB).isNotNull();
        Lifelinectl.Run preempt = cli.run("", Duration.ofMinutes(6), "preempt", victim, "--yes", "--wait");
        assertThat(preempt.code()).as(preempt.toString()).isZero();
        assertThat(preempt.out()).contains("suspend", "preempted", "succeeded");
        String suspended = victim;
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(okJson("get", "jobs", suspended, "-o", "json")
                                .get("state")
                                .asText())
                        .isEqualTo("suspended"));
        Lifelinectl.Run resume = cli.run("", Duration.ofMinutes(3), "resume", victim, "--yes", "--wait");
        assertThat(resume.code()).as(resume.toString()).isZero();
        assertThat(resume.out()).contains("succeeded");
        // rescale within bounds and restore from its newest checkpoint: refused or done, never silent
        Lifelinectl.Run rescale =
                cli.run("", Duration.ofMinutes(4), "rescale", JOB, "--workers", "6", "--yes", "--wait");
        assertThat(rescale.code()).as(rescale.toString()).isIn(0, 1);
        assertThat(rescale.out() + rescale.err()).isNotBlank();
        String ckpt =
                okJson("freshness", JOB, "-o", "json").path("checkpointId").asText(null);
        if (ckpt != null) {
            Lifelinectl.Run restore =
                    cli.run("", Duration.ofMinutes(4), "restore", JOB, "--checkpoint", ckpt, "--yes", "--wait");
            assertThat(restore.code()).as(restore.toString()).isIn(0, 1);
            assertThat(restore.out() + restore.err()).isNotBlank();
        }
    }

    @Test
    @Order(7)
    void tokensAndAViewerWhoMayNotDrain() throws Exception {
        Lifelinectl.Run created = ok("tokens", "create", "--name", "lifelinectl-it viewer", "--role", "viewer");
        viewerToken = created.out().strip();
        assertThat(viewerToken).startsWith("llt_");
        assertThat(created.err()).contains("shown only now");
        JsonNode list = okJson("tokens", "list", "-o", "json");
        assertThat(list.get("items"))
                .anySatisfy(t -> assertThat(t.get("name").asText()).isEqualTo("lifelinectl-it viewer"));
        assertThat(ok("tokens", "list").out()).contains("lifelinectl-it viewer", "viewer", "active");

        Lifelinectl.Run login = cli.run(
                viewerToken + "\n",
                Duration.ofMinutes(1),
                "login",
                "--context",
                "viewer",
                "--server",
                app.url(),
                "--token-stdin");
        assertThat(login.code()).as(login.toString()).isZero();
        assertThat(login.out())
                .contains("Logged in to " + app.url() + " as lifelinectl-it viewer (viewer, fleet-wide)");
        assertThat(ok("config", "get-contexts").out()).contains("admin", "viewer", "*");
        assertThat(ok("config", "current-context").out().strip()).isEqualTo("viewer");
        assertThat(ok("config", "view").out()).contains("(hidden)").doesNotContain(viewerToken);
        assertThat(okJson("whoami", "-o", "json").get("role").asText()).isEqualTo("viewer");
        assertThat(ok("get", "jobs", "-o", "name").out()).contains("job/" + JOB);

        Lifelinectl.Run drain = cli.run("drain", NODE, "--yes");
        assertThat(drain.code()).as(drain.toString()).isEqualTo(4);
        assertThat(drain.err()).contains("Forbidden: the viewer role may not POST this path; it needs operator");
        assertThat(cli.run("drain", NODE, "--dry-run").code())
                .as("even a dry run")
                .isEqualTo(4);
        assertThat(cli.run("policies", "set", "stale-checkpoint", "--mode", "off")
                        .code())
                .isEqualTo(4);
        assertThat(cli.run("tokens", "list").code()).isEqualTo(4);
        assertThat(ok("config", "use-context", "admin").out()).contains("Switched to context \"admin\"");

        String id = viewerToken.substring(4, 16);
        assertThat(ok("tokens", "revoke", id, "--dry-run").out()).contains(id);
        assertThat(ok("tokens", "revoke", id, "--yes").out()).contains("token " + id + " revoked");
        Lifelinectl.Run revoked = cli.run("--context", "viewer", "get", "jobs");
        assertThat(revoked.code()).as(revoked.toString()).isEqualTo(4);
        assertThat(revoked.err()).contains("Unauthorized");
        assertThat(ok("audit", "--security").out()).contains("token.revoked");
    }

    @Test
    @Order(8)
    void anUnreachableServerExitsFive() throws Exception {
        int port = LifelineProcess.freePort();
        Lifelinectl.Run r = cli.run("--server", "http://127.0.0.1:" + port, "get", "jobs");
        assertThat(r.code()).as(r.toString()).isEqualTo(5);
        assertThat(r.err()).contains("cannot reach Lifeline at http://127.0.0.1:" + port, "connection refused");
        assertThat(r.out()).isEmpty();
        assertThat(cli.run("--server", "http://127.0.0.1:" + port, "drain", NODE, "--yes")
                        .code())
                .isEqualTo(5);
    }

    @Test
    @Order(9)
    void eventsAuditAndPolicies() throws Exception {
        Lifelinectl.Run tail =
                cli.run("", Duration.ofMinutes(1), "events", "tail", "--no-follow", "-l", "3", "-o", "json");
        assertThat(tail.code()).as(tail.toString()).isZero();
        assertThat(tail.out().lines().toList())
                .hasSize(3)
                .allSatisfy(l -> assertThat(json.readTree(l).has("seq")).isTrue());
        Lifelinectl.Run follow = cli.run("", Duration.ofMinutes(2), "events", "tail", "-l", "0", "--count", "2");
        assertThat(follow.code()).as(follow.toString()).isZero();
        assertThat(follow.out().lines().toList()).hasSize(2);
        assertThat(okJson("events", "list", "--limit", "5", "--desc", "-o", "json")
                        .get("items"))
                .hasSize(5);
        assertThat(ok("events", "list", "--limit", "5", "--type", "node.registered")
                        .out())
                .contains("node.registered");

        assertThat(ok("audit", "--limit", "20").out()).contains("ACTOR", "WHAT");
        assertThat(okJson("audit", "--limit", "5", "-o", "json").get("items").size())
                .isBetween(1, 5);

        assertThat(ok("policies", "get").out()).contains("notice-checkpoint-drain", "restart-loop-suspend");
        JsonNode set = okJson(
                "policies",
                "set",
                "restart-loop-suspend",
                "--mode",
                "dry-run",
                "--override",
                "namespace:recsys=off",
                "-o",
                "json");
        assertThat(set.at("/overrides/namespace:recsys").asText()).isEqualTo("off");
        assertThat(ok("policies", "set", "restart-loop-suspend", "--remove-override", "namespace:recsys", "--dry-run")
                        .out())
                .contains("Dry run");
        JsonNode back = okJson(
                "policies", "set", "restart-loop-suspend", "--remove-override", "namespace:recsys", "-o", "json");
        assertThat(back.get("overrides").has("namespace:recsys")).isFalse();
        assertThat(okJson("policies", "get", "restart-loop-suspend", "-o", "json")
                        .get("mode")
                        .asText())
                .isEqualTo("dry-run");
        assertThat(okJson("audit", "--what", "policy.updated", "-o", "json").get("items"))
                .isNotEmpty();
    }

    @Test
    @Order(10)
    void installedAsTheKubectlPluginWithCompletionFromTheServer() throws Exception {
        Path bin = work.resolve("bin");
        Lifelinectl.Run install = ok("install", bin.toString());
        assertThat(install.out()).contains("kubectl-lifeline");
        for (String name : List.of("lifelinectl", "kubectl-lifeline", "kubectl_complete-lifeline")) {
            assertThat(Files.isSymbolicLink(bin.resolve(name))).as(name).isTrue();
        }
        java.util.Map<String, String> env = new java.util.HashMap<>(cli.env());
        env.put("PATH", bin + java.io.File.pathSeparator + env.getOrDefault("PATH", ""));
        Lifelinectl.Run plugin = Lifelinectl.exec(
                List.of(bin.resolve("kubectl-lifeline").toString(), "get", "nodes", "-o", "name"),
                "",
                Duration.ofMinutes(1),
                env);
        assertThat(plugin.code()).as(plugin.toString()).isZero();
        assertThat(plugin.out()).contains("node/" + NODE);
        if (onPath("kubectl")) {
            Lifelinectl.Run kubectl = Lifelinectl.exec(
                    List.of("kubectl", "lifeline", "get", "jobs", "-o", "name"), "", Duration.ofMinutes(1), env);
            assertThat(kubectl.code()).as(kubectl.toString()).isZero();
            assertThat(kubectl.out()).contains("job/" + JOB);
        }
        Lifelinectl.Run cobra = Lifelinectl.exec(
                List.of(bin.resolve("kubectl_complete-lifeline").toString(), "drain", "ondemand-p4d-000"),
                "",
                Duration.ofMinutes(1),
                env);
        assertThat(cobra.out().lines()).contains(NODE, ":4");

        assertThat(ok("__complete", "describe", "job", "").out().lines()).contains(JOB);
        assertThat(ok("__complete", "drain", "ondemand-p4d-00").out().lines()).contains(NODE);
        Lifelinectl.Run bash = Lifelinectl.exec(
                List.of(
                        "bash",
                        "-c",
                        "source <(lifelinectl completion bash); "
                                + "COMP_WORDS=(lifelinectl describe job vision/); COMP_CWORD=3; _lifelinectl; printf '%s\\n' \"${COMPREPLY[@]}\""),
                "",
                Duration.ofMinutes(1),
                env);
        assertThat(bash.code()).as(bash.toString()).isZero();
        assertThat(bash.out().lines()).contains(JOB);
        assertThat(ok("completion", "zsh").out()).startsWith("#compdef lifelinectl");
        if (onPath("zsh")) {
            // outside a completion widget compadd does not exist: a stand-in prints what it is given
            Lifelinectl.Run zsh = Lifelinectl.exec(
                    List.of(
                            "zsh",
                            "-f",
                            "-c",
                            "compdef() { :; }; "
                                    + "compadd() { shift; print -l -- \"$@\"; }; source <(lifelinectl completion zsh); "
                                    + "words=(lifelinectl drain ondemand-p4d-00); CURRENT=3; _lifelinectl"),
                    "",
                    Duration.ofMinutes(1),
                    env);
            assertThat(zsh.code()).as(zsh.toString()).isZero();
            assertThat(zsh.out().lines()).contains(NODE);
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
