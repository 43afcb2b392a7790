package io.lifeline.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code ./lifelinectl} launcher run as a process, the way an operator runs it: its own environment (a
 * configuration file in a temporary home, none of the caller's LIFELINE_* variables), standard input given, output
 * and exit code captured.
 */
final class Lifelinectl {

    /** One run. */
    record Run(int code, String out, String err, long millis) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private final Path launcher;
    private final Map<String, String> env = new HashMap<>();

    Lifelinectl(Path home, Path config) {
        this.launcher = Path.of("lifelinectl").toAbsolutePath();
        env.putAll(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("LIFELINE"));
        env.put("HOME", home.toString());
        env.put("LIFELINECONFIG", config.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        // the build's package phase made cli/target: a test never starts a build of its own
        env.put("LIFELINECTL_NO_BUILD", "1");
    }

    Path launcher() {
        return launcher;
    }

    Map<String, String> env() {
        return env;
    }

    Run run(String... args) throws IOException, InterruptedException {
        return run("", Duration.ofMinutes(2), args);
    }

    Run run(String stdin, Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.toString());
        cmd.addAll(List.of(args));
        return exec(cmd, stdin, timeout, env);
    }

    static Run exec(List<String> cmd, String stdin, Duration timeout, Map<String, String> env)
            throws IOException, InterruptedException {
        return exec(cmd, stdin, timeout, env, null);
    }

    /** Runs {@code cmd} in {@code dir} (null: this process's directory). */
    static Run exec(List<String> cmd, String stdin, Duration timeout, Map<String, String> env, Path dir)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("lifelinectl-out", ".txt");
        Path err = Files.createTempFile("lifelinectl-err", ".txt");
        try {
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            pb.environment().clear();
            pb.environment().putAll(env);
            long start = System.nanoTime();
            Process p = pb.start();
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", cmd) + " did not end within " + timeout + "; stdout so far:\n"
                        + Files.readString(out) + "\nstderr:\n" + Files.readString(err));
            }
            return new Run(
                    p.exitValue(),
                    Files.readString(out),
                    Files.readString(err),
                    (System.nanoTime() - start) / 1_000_000);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
