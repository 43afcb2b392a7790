package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code login}: signs in through the organisation's identity provider (device code, else browser) when given one, or
 * stores a token; checks it against the server ({@code /api/v1/whoami}); then saves it in a context and makes that
 * context the current one.
 */
@Command(
        name = "login",
        description = "Sign in and save the credentials in a context: through single sign-on "
                + "(--issuer and --client-id: the device-code flow where the provider offers it, else the browser), or by storing "
                + "a token (--token, --token-file, --token-stdin, or typed at the prompt).")
final class LoginCommand extends Base {

    @Option(
            names = "--issuer",
            paramLabel = "URL",
            description = "The OpenID Connect provider (as configured in "
                    + "quarkus.oidc.auth-server-url). Remembered in the context.")
    String issuer;

    @Option(
            names = "--client-id",
            paramLabel = "ID",
            description = "The provider's client for lifelinectl (a public "
                    + "client allowing the device grant or a loopback redirect).")
    String clientId;

    @Option(names = "--client-secret", paramLabel = "SECRET", description = "Only for a confidential client.")
    String clientSecret;

    @Option(names = "--scope", paramLabel = "SCOPES", description = "Default: openid offline_access.")
    String scope;

    @ArgGroup(exclusive = true)
    FlowChoice flow;

    /** --device or --browser. */
    static final class FlowChoice {
        @Option(names = "--device", description = "Use the device-code flow.")
        boolean device;

        @Option(names = "--browser", description = "Use the browser (authorization code with PKCE).")
        boolean browser;
    }

    @Option(names = "--token-file", paramLabel = "FILE", description = "Store a reference to this token file.")
    String tokenFile;

    @Option(names = "--token-stdin", description = "Read the token from standard input.")
    boolean tokenStdin;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "5m",
            description = "How long to wait for the sign-in (default: ${DEFAULT-VALUE}).")
    String timeout;

    /** Tests sign in without a browser. */
    static Sso.Browser browserForTests;

    @Override
    int run() {
        Main m = cli();
        Config config = m.config();
        String name =
                m.context != null ? m.context : config.currentContext() != null ? config.currentContext() : "default";
        Config.Context existing = config.find(name);
        String server = m.server != null
                ? m.server
                : existing != null && existing.server != null
                        ? existing.server
                        : term().env("LIFELINE_URL") != null ? term().env("LIFELINE_URL") : Main.DEFAULT_SERVER;
        Config.Context ctx = new Config.Context(name);
        ctx.server = server;
        ctx.namespace = m.namespace != null ? m.namespace : existing == null ? null : existing.namespace;
        String iss = issuer != null
                ? issuer
                : existing != null && existing.sso != null ? Json.text(existing.sso, "issuer") : null;
        String client = clientId != null
                ? clientId
                : existing != null && existing.sso != null ? Json.text(existing.sso, "client-id") : null;
        String secret;
        if (m.token != null || tokenStdin || tokenFile != null) {
            if (tokenFile != null) {
                ctx.tokenFile = tokenFile;
                secret = Main.readTokenFile(Config.expand(tokenFile, term().env()));
            } else {
                secret = m.token != null ? m.token : term().readLine();
                ctx.token = secret == null ? null : secret.trim();
            }
        } else if (iss != null) {
            if (client == null) {
                throw CliException.usage("--client-id is needed with --issuer");
            }
            Sso.Flow f = flow == null ? Sso.Flow.AUTO : flow.device ? Sso.Flow.DEVICE : Sso.Flow.BROWSER;
            Sso sso = new Sso(
                    term(),
                    Times.parseDuration(timeout),
                    browserForTests != null ? browserForTests : Sso.systemBrowser(term()));
            ObjectNode stored = sso.login(
                    iss,
                    client,
                    clientSecret != null
                            ? clientSecret
                            : existing != null && existing.sso != null
                                    ? Json.text(existing.sso, "client-secret")
                                    : null,
                    scope,
                    f);
            ctx.sso = stored;
            secret = Json.text(stored, "access-token");
        } else {
            secret = term().readSecret("Token for " + server + ": ");
            ctx.token = secret == null ? null : secret.trim();
        }
        if (secret == null || secret.isBlank()) {
            throw CliException.usage("no token given");
        }
        JsonNode who = new Api(server, secret::trim, Times.parseDuration(m.requestTimeout)).get(Api.path("whoami"));
        config.contexts().removeIf(c -> c.name.equals(name));
        config.contexts().add(ctx);
        config.currentContext(name);
        config.save();
        out().line("Logged in to " + server + " as " + Json.text(who, "name") + " (" + Json.text(who, "role")
                + (who.path("fleetWide").asBoolean()
                        ? ", fleet-wide"
                        : ", namespaces " + Formats.list(who.get("namespaces")))
                + "); saved as context \"" + name + "\" in " + config.path() + ".");
        return Exit.OK;
    }

    /** {@code logout}. */
    @Command(name = "logout", description = "Forget the credentials of a context (the current one by default).")
    static final class Logout extends Base {
        @Override
        int run() {
            Main m = cli();
            Config config = m.config();
            String name = m.context != null ? m.context : config.currentContext();
            Config.Context ctx = name == null ? null : config.find(name);
            if (ctx == null) {
                throw CliException.notFound("no context to log out of" + (name == null ? "" : ": '" + name + "'"));
            }
            ctx.token = null;
            ctx.tokenFile = null;
            ctx.sso = null;
            config.save();
            out().line("Logged out of context \"" + name + "\" (its server and namespace are kept).");
            return Exit.OK;
        }
    }
}
