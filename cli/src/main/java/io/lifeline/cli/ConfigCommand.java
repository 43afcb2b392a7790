package io.lifeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code config}: the contexts of the configuration file, as {@code kubectl config} does. */
@Command(
        name = "config",
        description = "Show and change the configuration file's contexts.",
        subcommands = {
            ConfigCommand.View.class,
            ConfigCommand.GetContexts.class,
            ConfigCommand.CurrentContext.class,
            ConfigCommand.UseContext.class,
            ConfigCommand.SetContext.class,
            ConfigCommand.DeleteContext.class
        })
final class ConfigCommand extends Base {

    @Override
    int run() {
        throw CliException.usage(
                "config what? view, get-contexts, current-context, use-context, set-context, delete-context");
    }

    static String auth(Config.Context c) {
        if (c.token != null) {
            return "token";
        }
        if (c.tokenFile != null) {
            return "token-file " + c.tokenFile;
        }
        if (c.sso != null) {
            return "sso " + Formats.or(Json.text(c.sso, "issuer"));
        }
        return "-";
    }

    /** {@code config view}. */
    @Command(name = "view", description = "Print the configuration (tokens hidden unless --raw).")
    static final class View extends Base {
        @Option(names = "--raw", description = "Show tokens as they are.")
        boolean raw;

        @Override
        int run() {
            Config c = cli().config();
            ObjectNode root = Json.object();
            root.put("file", c.path().toString());
            if (c.currentContext() != null) {
                root.put("current-context", c.currentContext());
            }
            ArrayNode list = root.putArray("contexts");
            for (Config.Context ctx : c.contexts()) {
                ObjectNode n = list.addObject();
                n.put("name", ctx.name);
                put(n, "server", ctx.server);
                put(n, "token", ctx.token == null ? null : raw ? ctx.token : redact(ctx.token));
                put(n, "token-file", ctx.tokenFile);
                put(n, "namespace", ctx.namespace);
                if (ctx.sso != null) {
                    ObjectNode s = ctx.sso.deepCopy();
                    if (!raw) {
                        for (String f : List.of("access-token", "refresh-token", "id-token", "client-secret")) {
                            if (s.has(f)) {
                                s.put(f, redact(s.get(f).asText()));
                            }
                        }
                    }
                    n.set("sso", s);
                }
            }
            Out out = out();
            if (out.format() == Out.Format.JSON) {
                out.document(root);
            } else {
                out.line(Json.toYaml(root).stripTrailing());
            }
            return Exit.OK;
        }

        private static void put(ObjectNode n, String k, String v) {
            if (v != null) {
                n.put(k, v);
            }
        }

        static String redact(String token) {
            int cut = token.startsWith("llt_") && token.length() > 16 ? 16 : Math.min(6, token.length());
            return token.substring(0, cut) + "...(hidden)";
        }
    }

    /** {@code config get-contexts}. */
    @Command(name = "get-contexts", description = "List the contexts; * marks the current one.")
    static final class GetContexts extends Base {
        @Override
        int run() {
            Config c = cli().config();
            Out out = out();
            if (out.names()) {
                c.contexts().forEach(ctx -> out.line(ctx.name));
                return Exit.OK;
            }
            Table t = new Table()
                    .column("current")
                    .column("name")
                    .flexible("server")
                    .column("namespace")
                    .flexible("auth");
            for (Config.Context ctx : c.contexts()) {
                t.row(
                        ctx.name.equals(c.currentContext()) ? "*" : "",
                        ctx.name,
                        Formats.or(ctx.server),
                        Formats.or(ctx.namespace),
                        auth(ctx));
            }
            if (t.size() == 0) {
                out.note("No contexts in " + c.path()
                        + ": add one with 'lifelinectl login' or 'lifelinectl config set-context'.");
                return Exit.OK;
            }
            out.table(t);
            return Exit.OK;
        }
    }

    /** {@code config current-context}. */
    @Command(name = "current-context", description = "Print the current context's name.")
    static final class CurrentContext extends Base {
        @Override
        int run() {
            String cur = cli().config().currentContext();
            if (cur == null) {
                throw CliException.notFound(
                        "no current context is set in " + cli().config().path());
            }
            out().line(cur);
            return Exit.OK;
        }
    }

    /** {@code config use-context}. */
    @Command(name = "use-context", description = "Make a context the current one.")
    static final class UseContext extends Base {
        @Parameters(paramLabel = "CONTEXT")
        String name;

        @Override
        int run() {
            Config c = cli().config();
            if (c.find(name) == null) {
                throw CliException.notFound("no context named '" + name + "' in " + c.path());
            }
            c.currentContext(name);
            c.save();
            out().line("Switched to context \"" + name + "\".");
            return Exit.OK;
        }
    }

    /** {@code config set-context}. */
    @Command(
            name = "set-context",
            description = "Create or change a context from --server, --token, --token-file and "
                    + "--namespace (the global options' values are stored).")
    static final class SetContext extends Base {
        @Parameters(paramLabel = "CONTEXT")
        String name;

        @Option(names = "--token-file", paramLabel = "FILE", description = "Read the token from this file at each use.")
        String tokenFile;

        @Option(names = "--current", description = "Also make it the current context.")
        boolean current;

        @Override
        int run() {
            Main m = cli();
            Config c = m.config();
            boolean existed = c.find(name) != null;
            Config.Context ctx = c.getOrCreate(name);
            if (m.server != null) {
                ctx.server = m.server;
            }
            if (m.token != null) {
                ctx.token = m.token;
                ctx.tokenFile = null;
                ctx.sso = null;
            }
            if (tokenFile != null) {
                ctx.tokenFile = tokenFile;
                ctx.token = null;
                ctx.sso = null;
            }
            if (m.namespace != null) {
                ctx.namespace = m.namespace.equals("-") ? null : m.namespace;
            }
            if (current || c.currentContext() == null) {
                c.currentContext(name);
            }
            c.save();
            out().line("Context \"" + name + "\" " + (existed ? "modified" : "created") + " in " + c.path() + ".");
            return Exit.OK;
        }
    }

    /** {@code config delete-context}. */
    @Command(name = "delete-context", description = "Remove a context.")
    static final class DeleteContext extends Base {
        @Parameters(paramLabel = "CONTEXT")
        String name;

        @Override
        int run() {
            Config c = cli().config();
            if (!c.remove(name)) {
                throw CliException.notFound("no context named '" + name + "' in " + c.path());
            }
            c.save();
            out().line("Deleted context \"" + name + "\".");
            return Exit.OK;
        }
    }
}
