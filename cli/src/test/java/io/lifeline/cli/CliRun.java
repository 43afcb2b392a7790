package io.lifeline.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Runs lifelinectl in this JVM (no process), with its own environment, standard input and captured output. */
final class CliRun {

    /** What a run printed and returned. */
    record Result(int code, String out, String err) {}

    private CliRun() {}

    static Result run(Map<String, String> env, String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("LIFELINECTL_TTY", "0");
        int code = Main.run(
                args,
                e,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
