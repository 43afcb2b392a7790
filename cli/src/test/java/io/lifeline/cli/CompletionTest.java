package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionTest {

    @TempDir
    Path dir;

    private FakeServer server;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        server = new FakeServer();
        server.on(
                "GET /api/v1/jobs",
                Reply.json("{\"items\":[{\"name\":\"vision/vit\",\"namespace\":\"vision\"},"
                        + "{\"name\":\"speech/whisper\",\"namespace\":\"speech\"}],\"total\":2}"));
        server.on(
                "GET /api/v1/nodes",
                Reply.json("{\"items\":[{\"name\":\"n-0001\"},{\"name\":\"n-0002\"}],\"total\":2}"));
        env = Map.of(
                "LIFELINECONFIG",
                dir.resolve("c.yaml").toString(),
                "LIFELINE_URL",
                server.url(),
                "LIFELINE_TOKEN",
                "t");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String complete(String... words) {
        String[] args = new String[words.length + 1];
        args[0] = "__complete";
        System.arraycopy(words, 0, args, 1, words.length);
        return CliRun.run(env, "", args).out();
    }

    @Test
    void commandsSubcommandsAndOptionsFromTheModel() {
        assertThat(complete("").lines())
                .contains("get", "describe", "drain", "timeline", "completion")
                .doesNotContain("__warmup", "policy");
        assertThat(complete("ge")).isEqualTo("get\n");
        assertThat(complete("get", "").lines())
                .containsExactlyInAnyOrder("jobs", "nodes", "gpus", "actions", "incidents", "alerts");
        assertThat(complete("drain", "--").lines())
                .contains("--dry-run", "--yes", "--wait", "--deadline", "--namespace");
        assertThat(complete("get", "jobs", "-o", "").lines()).containsExactly("json", "yaml", "wide", "name");
        assertThat(complete("login", "--token-file", "")).isEqualTo(":files\n");
    }

    @Test
    void jobAndNodeNamesFromTheServer() {
        assertThat(complete("describe", "job", "").lines()).containsExactly("vision/vit", "speech/whisper");
        assertThat(complete("checkpoint", "vi")).isEqualTo("vision/vit\n");
        assertThat(complete("drain", "").lines()).containsExactly("n-0001", "n-0002");
        assertThat(complete("-o", "json", "uncordon", "n-0002")).isEqualTo("n-0002\n");
        assertThat(complete("get", "nodes", "n-0001", "")).as("one node only").isEmpty();
        assertThat(complete("-n", "").lines()).contains("vision", "speech");
    }

    @Test
    void kubectlPluginCompletionSpeaksCobra() {
        assertThat(complete("--cobra", "drain", "")).isEqualTo("n-0001\nn-0002\n:4\n");
    }

    @Test
    void aDeadServerMeansNoCandidatesNotAnError() {
        server.close();
        CliRun.Result r = CliRun.run(env, "", "__complete", "drain", "");
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEmpty();
    }

    @Test
    void scriptsForBashAndZsh() {
        assertThat(CliRun.run(env, "", "completion", "bash").out())
                .contains("complete -F _lifelinectl lifelinectl kubectl-lifeline")
                .contains("__complete");
        assertThat(CliRun.run(env, "", "completion", "zsh").out())
                .startsWith("#compdef lifelinectl")
                .contains("compadd");
        assertThat(CliRun.run(env, "", "completion", "fish").code()).isEqualTo(Exit.USAGE);
    }
}
