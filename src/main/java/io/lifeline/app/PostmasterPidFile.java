package io.lifeline.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a PostgreSQL server's lock file ({@code postmaster.pid} in its data directory) says: the server's pid on its
 * first line. A server that ended without shutting down (killed, or its machine stopped) leaves the file behind.
 */
record PostmasterPidFile(Path file, long pid) {

    static final String NAME = "postmaster.pid";

    /** The lock file of {@code dataDir}, if there is one that names a pid. */
    static Optional<PostmasterPidFile> read(Path dataDir) throws IOException {
        Path file = dataDir.resolve(NAME);
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PostmasterPidFile(
                    file, Long.parseLong(lines.isEmpty() ? "" : lines.get(0).trim())));
        } catch (NumberFormatException e) {
            // A file cut short while being written: nobody can be running from it.
            return Optional.of(new PostmasterPidFile(file, -1));
        }
    }

    /**
     * The server it names, if that process still runs and is a PostgreSQL server of {@code dataDir}; a pid reused by
     * another program after a reboot is not.
     */
    Optional<ProcessHandle> runningServer(Path dataDir) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> isServerOf(p.info(), dataDir));
    }

    private static boolean isServerOf(ProcessHandle.Info info, Path dataDir) {
        String command =
                info.command().map(c -> Path.of(c).getFileName().toString()).orElse("");
        if (!command.equals("postgres") && !command.equals("postmaster")) {
            return false;
        }
        // The postmaster keeps its command line (pg_ctl passes -D); where it cannot be read, the command must do.
        return info.arguments()
                .map(args -> List.of(args).stream().anyMatch(a -> samePath(a, dataDir)))
                .orElse(true);
    }

    private static boolean samePath(String argument, Path dataDir) {
        try {
            return Files.isSameFile(Path.of(argument), dataDir);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
