package io.lifeline.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Where the command reads and writes, and what it knows of the terminal: whether standard output is one (colour only
 * then), and how wide it is (tables are sized to it). The launcher passes both, because a JVM cannot ask:
 * {@code LIFELINECTL_TTY} (1 or 0) and {@code LIFELINECTL_COLUMNS}; {@code COLUMNS} is honoured too.
 */
final class Terminal {

    private final Map<String, String> env;
    private final InputStream in;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean tty;
    private final int columns;
    private boolean colour;
    private BufferedReader reader;

    @SuppressWarnings("SystemConsoleNull") // built for Java 17, where null means no terminal; LIFELINECTL_TTY overrides
    Terminal(Map<String, String> env, InputStream in, PrintWriter out, PrintWriter err) {
        this.env = env;
        this.in = in;
        this.out = out;
        this.err = err;
        String t = env.get("LIFELINECTL_TTY");
        this.tty = t != null ? t.equals("1") : System.console() != null;
        this.columns = columns(env, tty);
        this.colour = tty && env.get("NO_COLOR") == null && !"dumb".equals(env.get("TERM"));
    }

    private static int columns(Map<String, String> env, boolean tty) {
        for (String k : new String[] {"LIFELINECTL_COLUMNS", "COLUMNS"}) {
            String v = env.get(k);
            if (v != null && v.matches("[0-9]{1,4}") && Integer.parseInt(v) > 0) {
                return Integer.parseInt(v);
            }
        }
        return tty ? 120 : 0;
    }

    Map<String, String> env() {
        return env;
    }

    String env(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }

    PrintWriter out() {
        return out;
    }

    PrintWriter err() {
        return err;
    }

    InputStream in() {
        return in;
    }

    boolean tty() {
        return tty;
    }

    /** Width to size tables to; 0 when standard output is not a terminal (nothing is cut then). */
    int columns() {
        return columns;
    }

    boolean colour() {
        return colour;
    }

    void noColour() {
        colour = false;
    }

    /** One line of standard input, or null at its end. */
    String readLine() {
        try {
            if (reader == null) {
                reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
            return reader.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    /** Asks a yes/no question on standard error; only {@code y} or {@code yes} is a yes (end of input is a no). */
    boolean confirm(String question) {
        err.print(question + " [y/N] ");
        err.flush();
        String answer = readLine();
        if (answer == null) {
            err.println();
        }
        return answer != null
                && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }

    /** Reads a secret without echo where there is a console, else a line of standard input. */
    @SuppressWarnings("SystemConsoleNull") // built for Java 17, where null means no terminal
    String readSecret(String prompt) {
        java.io.Console console = System.console();
        if (console != null) {
            char[] s = console.readPassword("%s", prompt);
            return s == null ? null : new String(s);
        }
        err.print(prompt);
        err.flush();
        return readLine();
    }

    String bold(String s) {
        return style(s, "1");
    }

    String dim(String s) {
        return style(s, "2");
    }

    String red(String s) {
        return style(s, "31");
    }

    String green(String s) {
        return style(s, "32");
    }

    String yellow(String s) {
        return style(s, "33");
    }

    private String style(String s, String code) {
        return colour && s != null && !s.isEmpty() ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }
}
