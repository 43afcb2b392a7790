package io.lifeline.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader's terminal for the commands of the documents: bash in a directory, with an environment of its own (a home
 * of its own, none of the caller's LIFELINE_* variables). Assignments a later command relies on ({@code TOKEN=...})
 * are kept and run again before each command, as an open terminal keeps them.
 */
final class DocShell {

    private final Path dir;
    private final Map<String, String> env;
    private final List<String> kept = new ArrayList<>();

    DocShell(Path dir, Path home) {
        this.dir = dir;
        this.env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("LIFELINE"));
        // the documents' ~/.config/lifeline/config.yaml
        env.remove("XDG_CONFIG_HOME");
        env.put("HOME", home.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        // the build's package phase made cli/target: a test never starts a build of its own
        env.put("LIFELINECTL_NO_BUILD", "1");
    }

    Path dir() {
        return dir;
    }

    Path home() {
        return Path.of(env.get("HOME"));
    }

    Map<String, String> env() {
        return env;
    }

    /** Sets an environment variable for every later command. */
    DocShell set(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Puts {@code bin} first on the PATH, as the reader does after an install. */
    DocShell onPath(Path bin) {
        env.put("PATH", bin + java.io.File.pathSeparator + env.getOrDefault("PATH", "/usr/bin:/bin"));
        return this;
    }

    /** Keeps {@code assignment} for every later command. */
    void keep(String assignment) {
        kept.add(assignment);
    }

    Lifelinectl.Run run(String command) throws IOException, InterruptedException {
        return run(command, "", Duration.ofMinutes(2));
    }

    /** Runs {@code command} as written, after the kept assignments, with {@code stdin} as its input. */
    Lifelinectl.Run run(String command, String stdin, Duration timeout) throws IOException, InterruptedException {
        String script = String.join("\n", kept) + (kept.isEmpty() ? "" : "\n") + command;
        return exec(List.of("bash", "-c", script), stdin, timeout);
    }

    /** Runs a program in this terminal's directory and environment. */
    Lifelinectl.Run exec(List<String> cmd, String stdin, Duration timeout) throws IOException, InterruptedException {
        return Lifelinectl.exec(cmd, stdin, timeout, env, dir);
    }
}
