package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTest {

    @TempDir
    Path dir;

    private static final String YAML = String.join(
            "\n",
            "current-context: prod",
            "contexts:",
            "- name: local",
            "  server: http://localhost:8080",
            "  token-file: ~/lifeline/.lifeline/admin-token",
            "- name: prod",
            "  server: https://lifeline.example.com",
            "  token: llt_prodtoken0001_secret",
            "  namespace: vision",
            "");

    @Test
    void whereTheFileIs() {
        String home = Path.of("users", "me").toAbsolutePath().toString();
        String etc = Path.of("conf", "ll.yaml").toAbsolutePath().toString();
        String xdg = Path.of("xdg").toAbsolutePath().toString();
        assertThat(Config.location(Map.of("LIFELINECONFIG", etc, "HOME", home))).isEqualTo(Path.of(etc));
        assertThat(Config.location(Map.of("LIFELINECONFIG", "~/ll.json", "HOME", home)))
                .isEqualTo(Path.of(home, "ll.json"));
        assertThat(Config.location(Map.of("XDG_CONFIG_HOME", xdg, "HOME", home)))
                .isEqualTo(Path.of(xdg, "lifeline", "config.yaml"));
        assertThat(Config.location(Map.of("HOME", home)))
                .isEqualTo(Path.of(home, ".config", "lifeline", "config.yaml"));
    }

    @Test
    void readsYamlContexts() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, YAML);
        Config c = Config.load(f);
        assertThat(c.currentContext()).isEqualTo("prod");
        assertThat(c.contexts()).extracting(x -> x.name).containsExactly("local", "prod");
        Config.Context local = c.find("local");
        assertThat(local.server).isEqualTo("http://localhost:8080");
        assertThat(local.tokenFile).isEqualTo("~/lifeline/.lifeline/admin-token");
        assertThat(c.current().namespace).isEqualTo("vision");
        assertThat(c.current().token).isEqualTo("llt_prodtoken0001_secret");
    }

    @Test
    void aMissingFileIsAnEmptyConfigurationAndABrokenOneIsAUsageError() throws Exception {
        Config c = Config.load(dir.resolve("none.yaml"));
        assertThat(c.contexts()).isEmpty();
        assertThat(c.current()).isNull();
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "- just\n- a list\n");
        assertThatThrownBy(() -> Config.load(bad))
                .isInstanceOf(CliException.class)
                .extracting(e -> ((CliException) e).exitCode())
                .isEqualTo(Exit.USAGE);
        Path nameless = dir.resolve("nameless.yaml");
        Files.writeString(nameless, "contexts:\n- server: http://x\n");
        assertThatThrownBy(() -> Config.load(nameless)).hasMessageContaining("without a name");
    }

    @Test
    void savesReadableOnlyByItsOwnerAndReadsBackTheSame() throws Exception {
        Path f = dir.resolve("sub/dir/config.yaml");
        Config c = Config.load(f);
        Config.Context ctx = c.getOrCreate("a");
        ctx.server = "http://a:8080";
        ctx.token = "llt_abcdefghijkl_s3cret";
        ctx.namespace = "team-a";
        c.currentContext("a");
        c.getOrCreate("b").tokenFile = "/run/token";
        c.save();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(f)).startsWith("current-context: a\n").doesNotContain("---");
        Config back = Config.load(f);
        assertThat(back.currentContext()).isEqualTo("a");
        assertThat(back.find("a").token).isEqualTo("llt_abcdefghijkl_s3cret");
        assertThat(back.find("a").namespace).isEqualTo("team-a");
        assertThat(back.find("b").tokenFile).isEqualTo("/run/token");
        assertThat(back.remove("a")).isTrue();
        assertThat(back.currentContext()).isNull();
    }

    @Test
    void jsonWhenTheFileNameSaysSo() throws Exception {
        Path f = dir.resolve("config.json");
        Config c = Config.load(f);
        c.getOrCreate("j").server = "http://j";
        c.save();
        assertThat(Files.readString(f)).startsWith("{");
        assertThat(Json.parse(Files.readString(f)).at("/contexts/0/server").asText())
                .isEqualTo("http://j");
        assertThat(Config.load(f).find("j").server).isEqualTo("http://j");
    }

    /** Flags, then --context, then the environment, then the current context, then the quick start's defaults. */
    @Test
    void whichServerTokenAndNamespaceWin() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, YAML);
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, "llt_fromfile00001_x\n");
        Files.writeString(f, YAML.replace("~/lifeline/.lifeline/admin-token", tokenFile.toString()));
        Map<String, String> env = new HashMap<>(Map.of("LIFELINECONFIG", f.toString()));

        Settings current = settings(env);
        assertThat(current.server()).isEqualTo("https://lifeline.example.com");
        assertThat(current.token()).isEqualTo("llt_prodtoken0001_secret");
        assertThat(current.namespace()).isEqualTo("vision");

        Settings named = settings(env, "--context", "local");
        assertThat(named.server()).isEqualTo("http://localhost:8080");
        assertThat(named.token()).isEqualTo("llt_fromfile00001_x");
        assertThat(named.namespace()).isNull();

        env.put("LIFELINE_URL", "http://from-env:8080");
        env.put("LIFELINE_TOKEN", "llt_fromenv000001_x");
        Settings fromEnv = settings(env);
        assertThat(fromEnv.server()).isEqualTo("http://from-env:8080");
        assertThat(fromEnv.token()).isEqualTo("llt_fromenv000001_x");
        assertThat(fromEnv.context()).isNull();
        assertThat(settings(env, "--context", "local").token())
                .as("an explicit context beats the environment")
                .isEqualTo("llt_fromfile00001_x");

        Settings flags =
                settings(env, "--context", "local", "--server", "http://flag", "--token", "llt_flag", "-n", "ns");
        assertThat(flags.server()).isEqualTo("http://flag");
        assertThat(flags.token()).isEqualTo("llt_flag");
        assertThat(flags.namespace()).isEqualTo("ns");

        Settings nothing =
                settings(Map.of("LIFELINECONFIG", dir.resolve("none.yaml").toString()));
        assertThat(nothing.server()).isEqualTo(Main.DEFAULT_SERVER);
        assertThatThrownBy(() -> settings(env, "--context", "nope"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("no context named 'nope'");
    }

    private static Settings settings(Map<String, String> env, String... flags) {
        Terminal term = new Terminal(
                env,
                java.io.InputStream.nullInputStream(),
                new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(new java.io.StringWriter()));
        Main main = new Main(term);
        picocli.CommandLine cl = Main.commandLine(main, "whoami");
        String[] args = new String[flags.length + 1];
        System.arraycopy(flags, 0, args, 0, flags.length);
        args[flags.length] = "whoami";
        cl.parseArgs(args);
        return main.settings();
    }
}
