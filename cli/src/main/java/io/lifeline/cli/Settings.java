package io.lifeline.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which server, token and namespace a command uses. The first that is set wins:
 * <ol>
 * <li>the flags {@code --server}, {@code --token}, {@code --namespace};</li>
 * <li>the context named with {@code --context};</li>
 * <li>the environment: {@code LIFELINE_URL} (which then replaces the current context), {@code LIFELINE_TOKEN},
 * {@code LIFELINE_NAMESPACE};</li>
 * <li>the configuration's current context;</li>
 * <li>the quick start's defaults: {@code http://localhost:8080} and the token in {@code ./.lifeline/admin-token}.</li>
 * </ol>
 */
final class Settings {

    private final String server;
    private final String namespace;
    private final Config.Context context;
    private final TokenSource tokenSource;
    private String token;
    private boolean tokenRead;

    /** Where the token comes from; read only when a request is sent. */
    interface TokenSource {
        String token();
    }

    private Settings(String server, String namespace, Config.Context context, TokenSource tokenSource) {
        this.server = server;
        this.namespace = namespace;
        this.context = context;
        this.tokenSource = tokenSource;
    }

    static Settings resolve(Main flags, Config config, Terminal term) {
        Config.Context explicit = null;
        if (flags.context != null) {
            explicit = config.find(flags.context);
            if (explicit == null) {
                throw CliException.usage("no context named '" + flags.context + "' in " + config.path()
                        + " (see 'lifelinectl config get-contexts')");
            }
        }
        String envUrl = term.env("LIFELINE_URL");
        Config.Context ctx = explicit != null ? explicit : envUrl != null ? null : config.current();
        String server = first(
                flags.server,
                explicit == null ? null : explicit.server,
                envUrl,
                ctx == null ? null : ctx.server,
                Main.DEFAULT_SERVER);
        String ns = first(
                flags.namespace,
                explicit == null ? null : explicit.namespace,
                term.env("LIFELINE_NAMESPACE"),
                ctx == null ? null : ctx.namespace);
        final Config.Context chosen = ctx;
        final Config.Context named = explicit;
        TokenSource source = () -> {
            if (flags.token != null) {
                return flags.token;
            }
            if (named != null && hasToken(named)) {
                return contextToken(named, config, term);
            }
            if (term.env("LIFELINE_TOKEN") != null) {
                return term.env("LIFELINE_TOKEN");
            }
            if (chosen != null && hasToken(chosen)) {
                return contextToken(chosen, config, term);
            }
            Path quick = Path.of(Main.QUICK_START_TOKEN);
            return Files.isReadable(quick) ? Main.readTokenFile(quick) : null;
        };
        return new Settings(server, ns, ctx, source);
    }

    private static boolean hasToken(Config.Context c) {
        return c.token != null || c.tokenFile != null || c.sso != null;
    }

    private static String contextToken(Config.Context c, Config config, Terminal term) {
        if (c.token != null) {
            return c.token;
        }
        if (c.tokenFile != null) {
            return Main.readTokenFile(Config.expand(c.tokenFile, term.env()));
        }
        return Sso.accessToken(c, config, term);
    }

    private static String first(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    String server() {
        return server;
    }

    String namespace() {
        return namespace;
    }

    /** The context in use, or null when none is (flags or environment only). */
    Config.Context context() {
        return context;
    }

    String token() {
        if (!tokenRead) {
            token = tokenSource.token();
            tokenRead = true;
        }
        return token;
    }
}
