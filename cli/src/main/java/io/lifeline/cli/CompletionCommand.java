package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code completion bash|zsh}: a script that asks {@code lifelinectl __complete} for the candidates at each Tab, so
 * commands and options come from the command model and job, node, action, policy, token and context names from the
 * server and the configuration.
 */
@Command(
        name = "completion",
        description = "Print a shell completion script: source <(lifelinectl completion bash), "
                + "or for zsh: source <(lifelinectl completion zsh).")
final class CompletionCommand extends Base {

    @Parameters(paramLabel = "SHELL", description = "bash or zsh")
    String shell;

    static final String BASH = String.join(
            "\n",
            "# lifelinectl completion for bash. Load it with: source <(lifelinectl completion bash)",
            "_lifelinectl() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" IFS=$'\\n' out",
            "    out=$(\"${COMP_WORDS[0]}\" __complete \"${COMP_WORDS[@]:1:COMP_CWORD}\" 2>/dev/null)",
            "    if [ \"$out\" = \":files\" ]; then",
            "        COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -W \"$out\" -- \"$cur\"))",
            "    fi",
            "}",
            "complete -F _lifelinectl lifelinectl kubectl-lifeline ./lifelinectl",
            "");

    static final String ZSH = String.join(
            "\n",
            "#compdef lifelinectl kubectl-lifeline",
            "# lifelinectl completion for zsh. Load it with: source <(lifelinectl completion zsh)",
            "# (after compinit), or save it as _lifelinectl in a directory of $fpath.",
            "_lifelinectl() {",
            "    local out",
            "    local -a cands",
            "    out=\"$(${words[1]} __complete \"${(@)words[2,CURRENT]}\" 2>/dev/null)\"",
            "    cands=(${(f)out})",
            "    if [[ \"${cands[1]}\" == \":files\" ]]; then",
            "        _files",
            "        return",
            "    fi",
            "    compadd -- \"${cands[@]}\"",
            "}",
            "if [[ \"${funcstack[1]}\" == \"_lifelinectl\" ]]; then",
            "    _lifelinectl \"$@\"",
            "else",
            "    compdef _lifelinectl lifelinectl kubectl-lifeline",
            "fi",
            "");

    @Override
    int run() {
        switch (shell.toLowerCase(Locale.ROOT)) {
            case "bash" -> term().out().print(BASH);
            case "zsh" -> term().out().print(ZSH);
            default -> throw CliException.usage("completion: bash or zsh, got '" + shell + "'");
        }
        term().out().flush();
        return Exit.OK;
    }

    private static final Map<String, List<String>> VALUES = Map.ofEntries(
            Map.entry("-o", List.of("json", "yaml", "wide", "name")),
            Map.entry("--output", List.of("json", "yaml", "wide", "name")),
            Map.entry(
                    "--kind",
                    List.of(
                            "checkpoint-now",
                            "drain",
                            "cordon",
                            "uncordon",
                            "preempt",
                            "resume",
                            "rescale",
                            "restore",
                            "replace-pods")),
            Map.entry("--mode", List.of("off", "dry-run", "on")),
            Map.entry("--role", List.of("viewer", "operator", "admin", "ingest")),
            Map.entry("--by", List.of("fleet", "pool", "capacity-type", "namespace")),
            Map.entry("--capacity-type", List.of("spot", "on-demand", "reserved")),
            Map.entry("--health", List.of("healthy", "degraded", "unhealthy", "failed", "unknown")));

    /**
     * {@code __complete WORD... CURRENT}: prints the candidates for the last word, one a line ({@code :files} for a file
     * name). With {@code --cobra} first (kubectl's plugin completion, {@code kubectl_complete-lifeline}), they are
     * followed by cobra's directive line. Parses nothing with picocli (the words are incomplete by nature): walks the
     * command model.
     */
    static int complete(Main main, CommandLine root, String[] rawArgs) {
        boolean cobra = rawArgs.length > 0 && rawArgs[0].equals("--cobra");
        String[] args = cobra ? Arrays.copyOfRange(rawArgs, 1, rawArgs.length) : rawArgs;
        String cur = args.length == 0 ? "" : args[args.length - 1];
        List<String> words = Arrays.asList(args).subList(0, Math.max(0, args.length - 1));
        Set<String> out = new LinkedHashSet<>();
        boolean files = false;
        try {
            files = candidates(main, root, words, cur, out);
        } catch (RuntimeException e) {
            // completion never fails loudly: no candidates (LIFELINECTL_DEBUG=1 shows why)
            if (main.term().env("LIFELINECTL_DEBUG") != null) {
                e.printStackTrace(main.term().err());
            }
            out.clear();
        }
        for (String c : out) {
            if (c.startsWith(cur)) {
                main.term().out().println(c);
            }
        }
        if (files && !cobra) {
            main.term().out().println(":files");
        }
        if (cobra) {
            main.term().out().println(files ? ":0" : ":4");
        }
        main.term().out().flush();
        return Exit.OK;
    }

    private static boolean candidates(Main main, CommandLine root, List<String> words, String cur, Set<String> out) {
        CommandSpec spec = root.getCommandSpec();
        int positional = 0;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.startsWith("-")) {
                String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
                OptionSpec o = spec.findOption(name);
                if (o != null && o.arity().min() > 0 && !w.contains("=") && i + 1 < words.size()) {
                    apply(main, name, words.get(i + 1));
                    i++;
                }
                continue;
            }
            CommandLine sub = spec.subcommands().get(w);
            if (sub != null && positional == 0) {
                spec = sub.getCommandSpec();
                continue;
            }
            positional++;
        }
        if (!words.isEmpty()) {
            String prev = words.get(words.size() - 1);
            OptionSpec o = prev.startsWith("-") && !prev.contains("=") ? spec.findOption(prev) : null;
            if (o != null && o.arity().min() > 0) {
                return optionValues(main, prev, out);
            }
        }
        if (cur.startsWith("-")) {
            for (OptionSpec o : spec.options()) {
                if (!o.hidden()) {
                    out.addAll(Arrays.asList(o.names()));
                }
            }
            return false;
        }
        if (!spec.subcommands().isEmpty() && positional == 0) {
            for (Map.Entry<String, CommandLine> e : spec.subcommands().entrySet()) {
                if (!e.getValue().getCommandSpec().usageMessage().hidden()
                        && e.getKey().equals(e.getValue().getCommandName())) {
                    out.add(e.getKey());
                }
            }
            return false;
        }
        List<PositionalParamSpec> params = spec.positionalParameters();
        if (params.isEmpty()) {
            return false;
        }
        PositionalParamSpec p = params.get(Math.min(positional, params.size() - 1));
        if (positional >= params.size() && !p.isMultiValue()) {
            return false;
        }
        return names(main, spec, p.paramLabel(), out);
    }

    private static void apply(Main main, String option, String value) {
        switch (option) {
            case "--context" -> main.context = value;
            case "-s", "--server" -> main.server = value;
            case "--token" -> main.token = value;
            case "-n", "--namespace" -> main.namespace = value;
            default -> {}
        }
    }

    private static boolean optionValues(Main main, String option, Set<String> out) {
        if (VALUES.containsKey(option)) {
            out.addAll(VALUES.get(option));
            return false;
        }
        switch (option) {
            case "--context" -> main.config().contexts().forEach(c -> out.add(c.name));
            case "-n", "--namespace" -> Jobs.all(main.api(), null).forEach(j -> out.add(Json.text(j, "namespace")));
            case "--node" -> nodes(main, out);
            case "--pool" -> main.api().get(Api.path("fleet", "health")).forEach(p -> out.add(Json.text(p, "pool")));
            case "--token-file" -> {
                return true;
            }
            default -> {}
        }
        return false;
    }

    private static boolean names(Main main, CommandSpec spec, String label, Set<String> out) {
        switch (label) {
            case "JOB" -> jobs(main, out);
            case "NODE" -> nodes(main, out);
            case "ACTION" -> {
                boolean unfinished = spec.name().equals("cancel");
                JsonNode page = main.api().get(Api.query(Api.path("actions"), Api.params("limit", 100)));
                for (JsonNode a : Base.items(page, "items")) {
                    if (!unfinished || !ActionCommands.TERMINAL.contains(Json.text(a, "state"))) {
                        out.add(Json.text(a, "id"));
                    }
                }
            }
            case "POLICY" -> main.api().get(Api.path("policies")).forEach(p -> out.add(Json.text(p, "name")));
            case "TOKEN" ->
                Base.items(main.api().get(Api.path("tokens")), "tokens").forEach(t -> out.add(Json.text(t, "id")));
            case "CONTEXT" -> main.config().contexts().forEach(c -> out.add(c.name));
            case "SHELL" -> out.addAll(List.of("bash", "zsh"));
            default -> {
                return false;
            }
        }
        return false;
    }

    private static void jobs(Main main, Set<String> out) {
        String ns = main.namespace;
        List<String> names = new ArrayList<>();
        for (JsonNode j : Jobs.all(main.api(), ns)) {
            names.add(Json.text(j, "name"));
        }
        out.addAll(names);
    }

    private static void nodes(Main main, Set<String> out) {
        JsonNode page = main.api().get(Api.query(Api.path("nodes"), Api.params("limit", 5000)));
        Base.items(page, "items").forEach(n -> out.add(Json.text(n, "name")));
    }
}
