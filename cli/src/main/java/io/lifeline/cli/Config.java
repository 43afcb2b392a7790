package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The configuration file, like kubectl's: named contexts (server URL, a token or a token file, a default namespace,
 * and what {@code lifelinectl login} stored), one of them current. YAML, or JSON when the file name ends in
 * {@code .json}. Where it is: {@code $LIFELINECONFIG}, else {@code $XDG_CONFIG_HOME/lifeline/config.yaml}, else
 * {@code ~/.config/lifeline/config.yaml}. Written with mode 600: it may hold tokens.
 *
 * <pre>
 * current-context: local
 * contexts:
 * - name: local
 *   server: http://localhost:8080
 *   token-file: ~/lifeline/.lifeline/admin-token
 *   namespace: vision
 * </pre>
 */
final class Config {

    /** One context. Fields are null when unset. */
    static final class Context {
        String name;
        String server;
        String token;
        String tokenFile;
        String namespace;
        /** What login through single sign-on stored: issuer, client id, tokens and expiry; null otherwise. */
        ObjectNode sso;

        Context(String name) {
            this.name = name;
        }
    }

    private final Path path;
    private String currentContext;
    private final List<Context> contexts = new ArrayList<>();

    private Config(Path path) {
        this.path = path;
    }

    static Path location(Map<String, String> env) {
        String explicit = env.get("LIFELINECONFIG");
        if (explicit != null && !explicit.isBlank()) {
            return expand(explicit, env);
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home(env).resolve(".config");
        return base.resolve("lifeline").resolve("config.yaml");
    }

    private static Path home(Map<String, String> env) {
        String h = env.get("HOME");
        return Path.of(h != null && !h.isBlank() ? h : System.getProperty("user.home"));
    }

    /** {@code ~/x} and {@code ~} as the home directory. */
    static Path expand(String p, Map<String, String> env) {
        if (p.equals("~")) {
            return home(env);
        }
        if (p.startsWith("~/")) {
            return home(env).resolve(p.substring(2));
        }
        return Path.of(p);
    }

    /** Reads the file; a missing file is an empty configuration. */
    static Config load(Path path) {
        Config c = new Config(path);
        if (!Files.isRegularFile(path)) {
            return c;
        }
        JsonNode root;
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            if (text.isBlank()) {
                return c;
            }
            root = mapperFor(path, text).readTree(text);
        } catch (IOException e) {
            throw CliException.usage("cannot read the configuration " + path + ": " + e.getMessage());
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return c;
        }
        if (!root.isObject()) {
            throw CliException.usage("the configuration " + path + " is not a mapping of current-context and contexts");
        }
        c.currentContext = Json.text(root, "current-context");
        JsonNode list = root.get("contexts");
        if (list != null && list.isArray()) {
            for (JsonNode n : list) {
                String name = Json.text(n, "name");
                if (name == null) {
                    throw CliException.usage("the configuration " + path + " has a context without a name");
                }
                Context ctx = new Context(name);
                ctx.server = Json.text(n, "server");
                ctx.token = Json.text(n, "token");
                ctx.tokenFile = Json.text(n, "token-file");
                ctx.namespace = Json.text(n, "namespace");
                ctx.sso = n.get("sso") instanceof ObjectNode o ? o : null;
                c.contexts.add(ctx);
            }
        }
        return c;
    }

    private static ObjectMapper mapperFor(Path path, String text) {
        return isJson(path) || text.stripLeading().startsWith("{") ? Json.MAPPER : Json.yaml();
    }

    private static boolean isJson(Path path) {
        return path.getFileName() != null && path.getFileName().toString().endsWith(".json");
    }

    /** Writes the file (creating its directory), readable only by its owner. */
    void save() {
        ObjectNode root = Json.object();
        if (currentContext != null) {
            root.put("current-context", currentContext);
        }
        ArrayNode list = root.putArray("contexts");
        for (Context c : contexts) {
            ObjectNode n = list.addObject();
            n.put("name", c.name);
            putIf(n, "server", c.server);
            putIf(n, "token", c.token);
            putIf(n, "token-file", c.tokenFile);
            putIf(n, "namespace", c.namespace);
            if (c.sso != null) {
                n.set("sso", c.sso);
            }
        }
        try {
            Path dir = path.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".config", ".tmp");
            try {
                restrict(tmp);
                String text = isJson(path) ? Json.pretty(root) + "\n" : Json.toYaml(root);
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new CliException(Exit.FAILED, "cannot write the configuration " + path + ": " + e.getMessage());
        }
    }

    private static void restrict(Path p) throws IOException {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its default permissions apply
        }
    }

    private static void putIf(ObjectNode n, String field, String value) {
        if (value != null && !value.isBlank()) {
            n.put(field, value);
        }
    }

    Path path() {
        return path;
    }

    String currentContext() {
        return currentContext;
    }

    void currentContext(String name) {
        this.currentContext = name;
    }

    List<Context> contexts() {
        return contexts;
    }

    Context find(String name) {
        for (Context c : contexts) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** The named context, created (and appended) if there is none. */
    Context getOrCreate(String name) {
        Context c = find(name);
        if (c == null) {
            c = new Context(name);
            contexts.add(c);
        }
        return c;
    }

    boolean remove(String name) {
        boolean removed = contexts.removeIf(c -> c.name.equals(name));
        if (removed && name.equals(currentContext)) {
            currentContext = null;
        }
        return removed;
    }

    Context current() {
        return currentContext == null ? null : find(currentContext);
    }
}
