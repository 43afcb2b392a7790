package io.lifeline.security;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.jboss.logging.Logger;

/**
 * Local-mode bootstrap: at start-up, when no usable admin token exists, create one and write it to a file only this
 * user can read ({@code lifeline.security.bootstrap-token-file}, default {@code .lifeline/admin-token}). The log
 * names the file, never the token. The file is written before the token is committed, so a token that could not be
 * written down is never stored.
 */
@ApplicationScoped
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class);

    private final SecurityConfig config;
    private final TokenService tokens;

    AdminBootstrap(SecurityConfig config, TokenService tokens) {
        this.config = config;
        this.tokens = tokens;
    }

    void onStart(@Observes StartupEvent ev) {
        if (!config.enabled()) {
            return;
        }
        Path file = Path.of(config.bootstrapTokenFile()).toAbsolutePath();
        String id = tokens.createFirstAdminIfNone(token -> writeOwnerOnly(file, token));
        if (id != null) {
            LOG.infof(
                    "No admin token existed: created the first one (id %s) and wrote it to %s, readable only by "
                            + "this user. Use it to create other tokens (docs/api.md).",
                    id, file);
        }
    }

    /** Writes {@code token} to {@code file} atomically, with permissions 600 where the file system has them. */
    static void writeOwnerOnly(Path file, String token) {
        try {
            OwnerOnlyFiles.write(file, token + "\n");
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(
                    "cannot write the first admin token to " + file
                            + " (set lifeline.security.bootstrap-token-file to a writable place)",
                    e.getCause());
        }
    }
}
