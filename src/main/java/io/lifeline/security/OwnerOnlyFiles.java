package io.lifeline.security;

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
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.Set;

/**
 * Files and directories only the user running Lifeline may read: its state directory ({@code .lifeline}, mode 700),
 * the first admin token and the embedded database's password (mode 600). Where the file system has no POSIX
 * permissions (Windows), the files are written without them.
 */
public final class OwnerOnlyFiles {

    static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private OwnerOnlyFiles() {}

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Creates {@code dir} and every missing parent with mode 700. {@code dir} itself, when it exists already with
     * more permissions (an earlier version created {@code .lifeline} 755), is narrowed to 700; existing parents are
     * left as they are.
     */
    public static void directory(Path dir) throws IOException {
        Path d = dir.toAbsolutePath().normalize();
        if (!posix()) {
            Files.createDirectories(d);
            return;
        }
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = d; p != null && !Files.exists(p); p = p.getParent()) {
            missing.push(p);
        }
        while (!missing.isEmpty()) {
            Path p = missing.pop();
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(OWNER_RWX));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // Created meanwhile by someone else: its mode is theirs.
            }
            // The umask can only remove bits; make it exact anyway.
            Files.setPosixFilePermissions(p, OWNER_RWX);
        }
        if (!Files.getPosixFilePermissions(d).equals(OWNER_RWX)) {
            Files.setPosixFilePermissions(d, OWNER_RWX);
        }
    }

    /** Writes {@code text} to {@code file} atomically with mode 600, creating its directory with mode 700. */
    public static void write(Path file, String text) {
        boolean posix = posix();
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                directory(dir);
            }
            FileAttribute<?>[] attrs = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_RW)}
                    : new FileAttribute<?>[0];
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp", attrs);
            try {
                Files.writeString(tmp, text, StandardCharsets.US_ASCII);
                if (posix) {
                    Files.setPosixFilePermissions(tmp, OWNER_RW);
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * The secret kept in {@code file} (its first line), or a new random one (256 bits, URL-safe Base64) written there
     * with mode 600 when the file does not exist.
     *
     * @return the secret and whether it was created just now
     */
    public static Secret secret(Path file) {
        try {
            if (Files.exists(file)) {
                if (posix() && !Files.getPosixFilePermissions(file).equals(OWNER_RW)) {
                    Files.setPosixFilePermissions(file, OWNER_RW);
                }
                String line = Files.readString(file, StandardCharsets.US_ASCII)
                        .lines()
                        .findFirst()
                        .orElse("")
                        .strip();
                if (line.isEmpty()) {
                    throw new IllegalStateException(file + " is empty: delete it to have a new secret made");
                }
                return new Secret(line, false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String value = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        write(file, value + "\n");
        return new Secret(value, true);
    }

    /**
     * A secret read from or written to an owner-only file.
     *
     * @param value   the secret
     * @param created whether this call made it (the file did not exist)
     */
    public record Secret(String value, boolean created) {
        @Override
        public String toString() {
            return "Secret[created=" + created + "]";
        }
    }
}
