package io.lifeline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code lifelinectl}: the root command, its global options, and how settings are resolved. */
@Command(
        name = "lifelinectl",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = false,
        description = "Operate Lifeline from the command line: jobs, nodes, GPUs, actions, incidents, alerts, policies "
                + "and tokens, through its REST API. Also works as the kubectl plugin 'kubectl lifeline'.",
        footer = {
            "",
            "Exit codes: 0 ok, 1 the action failed or was refused, 2 usage, 3 not found, 4 not allowed, "
                    + "5 unreachable.",
            "Configuration: ~/.config/lifeline/config.yaml (or $LIFELINECONFIG); see docs/cli.md."
        })
public final class Main implements Callable<Integer> {

    /**
     * The commands, in the order help lists them. Only the one named on the command line is given to picocli (it
     * builds its model of every command given by reflection, which costs more start-up time than anything else).
     */
    static final List<Class<?>> COMMANDS = List.of(
            GetCommand.class,
            DescribeCommand.class,
            JobCommands.Timeline.class,
            JobCommands.Goodput.class,
            JobCommands.Freshness.class,
            JobCommands.Advice.class,
            StorageCommand.class,
            WhatIfCommand.class,
            HangCommand.class,
            StacksCommand.class,
            AttemptsCommand.class,
            RecoveryCommand.class,
            ActionCommands.Checkpoint.class,
            ActionCommands.Drain.class,
            ActionCommands.Cordon.class,
            ActionCommands.Uncordon.class,
            ActionCommands.Rescale.class,
            ActionCommands.Preempt.class,
            ActionCommands.Resume.class,
            ActionCommands.Restore.class,
            ActionCommands.Cancel.class,
            EventsCommand.class,
            AuditCommand.class,
            PoliciesCommand.class,
            ObjectivesCommand.class,
            TokensCommand.class,
            LoginCommand.class,
            LoginCommand.Logout.class,
            ConfigCommand.class,
            WhoamiCommand.class,
            CompletionCommand.class,
            Warmup.class);

    /** Global options that take a value as the next word. */
    private static final java.util.Set<String> VALUE_OPTIONS = java.util.Set.of(
            "--context", "-s", "--server", "--token", "-n", "--namespace", "-o", "--output", "--request-timeout");

    static final String DEFAULT_SERVER = "http://localhost:8080";
    /** Where the quick start (./lifeline) writes its admin token, relative to the directory it runs in. */
    static final String QUICK_START_TOKEN = ".lifeline/admin-token";

    @Option(
            names = "--context",
            scope = ScopeType.INHERIT,
            paramLabel = "NAME",
            description = "The context of the configuration file to use (default: its current-context).")
    String context;

    @Option(
            names = {"-s", "--server"},
            scope = ScopeType.INHERIT,
            paramLabel = "URL",
            description = "Lifeline's URL (default: the context's, else $LIFELINE_URL, else " + DEFAULT_SERVER + ").")
    String server;

    @Option(
            names = "--token",
            scope = ScopeType.INHERIT,
            paramLabel = "TOKEN",
            description = "The bearer token (default: the context's, else $LIFELINE_TOKEN).")
    String token;

    @Option(
            names = {"-n", "--namespace"},
            scope = ScopeType.INHERIT,
            paramLabel = "NS",
            description = "Only this namespace (default: the context's namespace, else all).")
    String namespace;

    @Option(
            names = {"-A", "--all-namespaces"},
            scope = ScopeType.INHERIT,
            description = "All namespaces, whatever the context says.")
    boolean allNamespaces;

    @Option(
            names = {"-o", "--output"},
            scope = ScopeType.INHERIT,
            paramLabel = "FORMAT",
            description = "json, yaml, wide or name (default: a table).")
    String output;

    @Option(
            names = "--absolute",
            scope = ScopeType.INHERIT,
            description = "Absolute timestamps (UTC) instead of relative ones ('3m ago').")
    boolean absolute;

    @Option(names = "--no-color", scope = ScopeType.INHERIT, description = "No colour, even on a terminal.")
    boolean noColour;

    @Option(
            names = "--request-timeout",
            scope = ScopeType.INHERIT,
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "How long to wait to connect (default: ${DEFAULT-VALUE}).")
    String requestTimeout = "10s";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Terminal term;
    private Config config;
    private Api api;
    private Out out;
    private Settings settings;

    Main(Terminal term) {
        this.term = term;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(
                new OutputStreamWriter(
                        new PrintStream(System.out, false, StandardCharsets.UTF_8), StandardCharsets.UTF_8),
                false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, System.getenv(), System.in, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs one command line; never exits the JVM (tests call this). */
    static int run(String[] args, Map<String, String> env, InputStream in, PrintWriter out, PrintWriter err) {
        Terminal term = new Terminal(env, in, out, err);
        Main main = new Main(term);
        if (args.length > 0 && args[0].equals("__complete")) {
            return CompletionCommand.complete(
                    main, commandLine(main, null), java.util.Arrays.copyOfRange(args, 1, args.length));
        }
        // LIFELINECTL_ALL_COMMANDS=1 gives picocli every command, as before the lazy registration (for BENCHMARKS.md)
        return commandLine(main, term.env("LIFELINECTL_ALL_COMMANDS") != null ? null : commandWord(args))
                .execute(args);
    }

    /** The first word that is not a global option or its value: the command's name, or null. */
    static String commandWord(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                return null;
            }
            if (!a.startsWith("-")) {
                return a;
            }
            if (VALUE_OPTIONS.contains(a)) {
                i++;
            }
        }
        return null;
    }

    /** The command line with every command, or with only the one named {@code only} when there is such a command. */
    static CommandLine commandLine(Main main, String only) {
        CommandLine cl = new CommandLine(main);
        Class<?> chosen = null;
        for (Class<?> c : COMMANDS) {
            Command a = c.getAnnotation(Command.class);
            if (only != null && (a.name().equals(only) || List.of(a.aliases()).contains(only))) {
                chosen = c;
            }
        }
        for (Class<?> c : chosen != null ? List.of(chosen) : COMMANDS) {
            cl.addSubcommand(c);
        }
        cl.setOut(main.term.out());
        cl.setErr(main.term.err());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpWidth(Math.max(80, Math.min(140, main.term.columns() == 0 ? 100 : main.term.columns())));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().flush();
            main.term.out().flush();
            if (main.term.env("LIFELINECTL_DEBUG") != null) {
                ex.printStackTrace(main.term.err());
            }
            if (ex instanceof CliException c) {
                main.term.err().println("error: " + c.getMessage());
                return c.exitCode();
            }
            main.term.err().println("error: " + ex);
            return Exit.FAILED;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            if (ex instanceof CommandLine.UnmatchedArgumentException u
                    && !u.getUnmatched().isEmpty()) {
                String what = u.getUnmatched().get(0);
                cmd.getErr()
                        .println("error: "
                                + (what.startsWith("-") ? "unknown option '" : "unknown command or argument '")
                                + what + "'"
                                + (u.getSuggestions().isEmpty()
                                        ? ""
                                        : "; did you mean " + String.join(" or ", u.getSuggestions()) + "?"));
            } else {
                cmd.getErr().println("error: " + ex.getMessage());
            }
            cmd.getErr().println("See '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
            return Exit.USAGE;
        });
        return cl;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(term.err());
        return Exit.USAGE;
    }

    Terminal term() {
        return term;
    }

    Config config() {
        if (config == null) {
            config = Config.load(Config.location(term.env()));
        }
        return config;
    }

    Out out() {
        if (out == null) {
            if (noColour) {
                term.noColour();
            }
            out = new Out(term, Out.parse(output), new Times(absolute, Instant.now()));
        }
        return out;
    }

    Settings settings() {
        if (settings == null) {
            settings = Settings.resolve(this, config(), term);
        }
        return settings;
    }

    Api api() {
        if (api == null) {
            Settings s = settings();
            api = new Api(s.server(), s::token, Times.parseDuration(requestTimeout));
        }
        return api;
    }

    /** The namespace to limit lists to, or null for all. */
    String namespaceScope() {
        return allNamespaces ? null : settings().namespace();
    }

    static String version() {
        String v =
                Main.class.getPackage() == null ? null : Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lifelinectl " + version() + " (Java " + System.getProperty("java.version") + ")"};
        }
    }

    /** Reads a token file, trimmed; a missing file is an error naming it. */
    static String readTokenFile(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new CliException(Exit.NOT_ALLOWED, "cannot read the token file " + p + ": " + e.getMessage());
        }
    }

    static Duration timeout(String text) {
        return Times.parseDuration(text);
    }
}
