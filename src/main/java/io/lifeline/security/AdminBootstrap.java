package io.lifeline.security;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
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
    private static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");

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
            LOG.infof("No admin token existed: created the first one (id %s) and wrote it to %s, readable only by "
                    + "this user. Use it to create other tokens (docs/api.md).", id, file);
        }
    }

    /** Writes {@code token} to {@code file} atomically, with permissions 600 where the file system has them. */
    static void writeOwnerOnly(Path file, String token) {
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        try {
            Path dir = file.getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                if (posix) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_RWX));
                } else {
                    Files.createDirectories(dir);
                }
            }
            FileAttribute<?>[] attrs = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_RW)}
                    : new FileAttribute<?>[0];
            Path tmp = Files.createTempFile(dir, ".admin-token", ".tmp", attrs);
            try {
                Files.writeString(tmp, token + "\n", StandardCharsets.US_ASCII);
                if (posix) {
                    // The umask can only remove bits, but make it exact anyway.
                    Files.setPosixFilePermissions(tmp, OWNER_RW);
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the first admin token to " + file
                    + " (set lifeline.security.bootstrap-token-file to a writable place)", e);
        }
    }
}
