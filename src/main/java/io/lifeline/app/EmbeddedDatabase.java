package io.lifeline.app;

import io.lifeline.security.OwnerOnlyFiles;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A real PostgreSQL server started by Lifeline for the zero-configuration default. Its data directory is kept, so
 * history survives restarts; by default every commit is flushed to disk before it is acknowledged. The server stops
 * with the JVM however the JVM ends ({@link PostmasterWatchdog}), and a start that finds a server left running on
 * the directory by an earlier run stops it first.
 *
 * <p>Every connection, over TCP or the local socket, must give the superuser's password (scram-sha-256): another
 * user of the machine can reach the loopback port, so it must not be trusted. The password is generated on the
 * first start and kept next to the data directory ({@code .lifeline/pgdata.password}, mode 600).
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
    private static final Duration ORPHAN_STOP_TIMEOUT = PostmasterWatchdog.FAST_SHUTDOWN_GRACE.plusSeconds(30);

    private final EmbeddedPostgres postgres;
    private final Path dataDir;
    private final Optional<PostmasterWatchdog> watchdog;
    private final DataDirectoryLock lock;

    private final String password;

    private EmbeddedDatabase(
            EmbeddedPostgres postgres,
            Path dataDir,
            String password,
            Optional<PostmasterWatchdog> watchdog,
            DataDirectoryLock lock) {
        this.postgres = postgres;
        this.password = password;
        this.dataDir = dataDir;
        this.watchdog = watchdog;
        this.lock = lock;
    }

    /**
     * Starts (or reopens) the server on a free loopback port with its data in {@code dataDir}.
     *
     * @param synchronousCommit whether a commit returns only once it is on disk; off, a crash of the server (not
     *     only of the JVM) may lose the last few hundred milliseconds of acknowledged writes, never consistency
     */
    public static EmbeddedDatabase start(Path dataDir, boolean synchronousCommit) {
        DataDirectoryLock lock = null;
        EmbeddedPostgres pg = null;
        try {
            OwnerOnlyFiles.directory(dataDir);
            lock = DataDirectoryLock.acquire(dataDir);
            clearEarlierServer(dataDir);
            Path passwordFile = passwordFile(dataDir);
            boolean initialised = Files.exists(dataDir.resolve("postgresql.conf"));
            OwnerOnlyFiles.Secret password = OwnerOnlyFiles.secret(passwordFile);
            // A data directory made by an earlier version trusted every local connection and has no password yet:
            // trusted once more, on loopback only, for the moment it takes to set one.
            boolean settingPassword = initialised && password.created();
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(0)
                    // A new cluster's superuser gets the password at initdb (the library passes this as --pwfile=).
                    .setLocaleConfig("pwfile", passwordFile.toAbsolutePath().toString())
                    // The library checks the server is up with its own connection: it needs the password too.
                    .setConnectConfig("password", password.value())
                    .setDataDirectoryCustomizer(dir -> writeClientAuthentication(dir.toPath(), settingPassword))
                    // Lifeline stops it itself, after the application's last write (see LifelineMain).
                    .setRegisterShutdownHook(false);
            serverSettings(synchronousCommit).forEach(builder::setServerConfig);
            pg = builder.start();
            if (settingPassword) {
                setPassword(pg, password.value());
                writeClientAuthentication(dataDir, false);
                reloadConfiguration(pg, password.value());
                LOG.infof(
                        "Embedded PostgreSQL: set a password on the superuser (kept in %s); local connections "
                                + "without it are no longer trusted",
                        passwordFile.toAbsolutePath());
            }
            Optional<PostmasterWatchdog> watchdog = watch(dataDir);
            LOG.infof(
                    "Embedded PostgreSQL started on port %d with data in %s (synchronous_commit=%s, password "
                            + "required, kept in %s)",
                    pg.getPort(),
                    dataDir.toAbsolutePath(),
                    synchronousCommit ? "on" : "off",
                    passwordFile.toAbsolutePath());
            return new EmbeddedDatabase(pg, dataDir, password.value(), watchdog, lock);
        } catch (IOException | RuntimeException e) {
            if (pg != null) {
                closeQuietly(pg);
            }
            if (lock != null) {
                lock.close();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new UncheckedIOException(
                    "cannot start the embedded PostgreSQL in " + dataDir.toAbsolutePath(), (IOException) e);
        }
    }

    /**
     * The server settings Lifeline adds to the library's: the library starts PostgreSQL with fsync off (a test
     * default that can corrupt the data directory when the machine stops), and with asynchronous commits unless
     * asked otherwise. A later {@code -c} wins over the library's {@code -F}.
     */
    public static Map<String, String> serverSettings(boolean synchronousCommit) {
        return Map.of("fsync", "on", "synchronous_commit", synchronousCommit ? "on" : "off");
    }

    /** Where the password of the server with data in {@code dataDir} is kept: {@code <dataDir>.password}. */
    public static Path passwordFile(Path dataDir) {
        Path abs = dataDir.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + ".password");
    }

    /**
     * The server's client authentication ({@code pg_hba.conf}), written at every start: scram-sha-256 for the local
     * socket and loopback, nothing else. {@code trustLoopbackOnce}: trust on loopback instead, for the start that
     * sets the password of a cluster an earlier version made.
     */
    static void writeClientAuthentication(Path dataDir, boolean trustLoopbackOnce) {
        String method = trustLoopbackOnce ? "trust" : "scram-sha-256";
        String conf =
                "# Written by Lifeline at every start of its embedded PostgreSQL (docs/operations.md, \"Hardening\"):\n"
                        + "# every connection gives the superuser's password, kept in "
                        + passwordFile(dataDir).getFileName()
                        + " next to this directory.\n"
                        + "local   all   all                  " + method + "\n"
                        + "host    all   all   127.0.0.1/32   " + method + "\n"
                        + "host    all   all   ::1/128        " + method + "\n";
        try {
            Path file = dataDir.resolve("pg_hba.conf");
            Path tmp = dataDir.resolve("pg_hba.conf.tmp");
            Files.writeString(tmp, conf);
            Files.move(
                    tmp,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pg_hba.conf in " + dataDir, e);
        }
    }

    private static void setPassword(EmbeddedPostgres pg, String password) {
        try (java.sql.Connection c = pg.getPostgresDatabase().getConnection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("SET password_encryption = 'scram-sha-256'");
            // Not a bind parameter (ALTER ROLE takes none); the generated password is URL-safe Base64.
            s.execute("ALTER ROLE postgres WITH PASSWORD '" + password.replace("'", "''") + "'");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot set the embedded PostgreSQL's password: " + e.getMessage(), e);
        }
    }

    private static void reloadConfiguration(EmbeddedPostgres pg, String password) {
        try (java.sql.Connection c =
                        pg.getPostgresDatabase(Map.of("password", password)).getConnection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("SELECT pg_reload_conf()");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(
                    "cannot reload the embedded PostgreSQL's configuration: " + e.getMessage(), e);
        }
    }

    /** Reads {@code lifeline.database.embedded-synchronous-commit}: {@code on} (the default) or {@code off}. */
    static boolean parseSynchronousCommit(String value) {
        if (value == null) {
            return true;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default ->
                throw new IllegalArgumentException(
                        "lifeline.database.embedded-synchronous-commit must be on or off, not '" + value + "'");
        };
    }

    /**
     * Makes way for the new server: a server still running on the directory was left by an earlier run that ended
     * without stopping it (this JVM holds the directory's lock, so that run is gone), and is stopped; a lock file
     * whose server is gone is removed (PostgreSQL refuses to start while its pid belongs to any live process).
     */
    private static void clearEarlierServer(Path dataDir) throws IOException {
        Optional<PostmasterPidFile> found = PostmasterPidFile.read(dataDir);
        if (found.isEmpty()) {
            return;
        }
        PostmasterPidFile pidFile = found.get();
        if (pidFile.runningServer(dataDir).isEmpty()) {
            Files.deleteIfExists(pidFile.file());
            LOG.infof(
                    "Removed a stale %s from %s: the PostgreSQL server it names (pid %d) is no longer running",
                    PostmasterPidFile.NAME, dataDir, pidFile.pid());
            return;
        }
        LOG.warnf(
                "Found a PostgreSQL server (pid %d) still running on %s, left by an earlier run of Lifeline that "
                        + "ended without stopping it; stopping it (fast shutdown) before starting a new one",
                pidFile.pid(), dataDir);
        long started = System.nanoTime();
        boolean stopped;
        try {
            stopped = PostmasterWatchdog.available()
                    ? PostmasterWatchdog.stopNow(pidFile.pid(), dataDir, ORPHAN_STOP_TIMEOUT)
                    : stopBySigterm(pidFile.pid());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = false;
        }
        if (!stopped) {
            throw new IllegalStateException("the PostgreSQL server (pid " + pidFile.pid() + ") left running on "
                    + dataDir + " did not stop within " + ORPHAN_STOP_TIMEOUT.toSeconds() + " s; stop it and start "
                    + "Lifeline again");
        }
        LOG.infof(
                "Stopped the earlier PostgreSQL server (pid %d) in %d ms; its committed data is kept",
                pidFile.pid(), (System.nanoTime() - started) / 1_000_000);
    }

    /** Without a shell: a smart shutdown, which the clients of a dead run no longer hold up. */
    private static boolean stopBySigterm(long pid) throws InterruptedException {
        Optional<ProcessHandle> server = ProcessHandle.of(pid);
        server.ifPresent(ProcessHandle::destroy);
        long deadline = System.nanoTime() + ORPHAN_STOP_TIMEOUT.toNanos();
        while (server.map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static Optional<PostmasterWatchdog> watch(Path dataDir) throws IOException {
        if (!PostmasterWatchdog.available()) {
            LOG.warn("No /bin/sh: if this JVM is killed, the embedded PostgreSQL server keeps running until the next "
                    + "start of Lifeline stops it");
            return Optional.empty();
        }
        long pid = PostmasterPidFile.read(dataDir)
                .orElseThrow(
                        () -> new IllegalStateException("the embedded PostgreSQL wrote no " + PostmasterPidFile.NAME))
                .pid();
        return Optional.of(PostmasterWatchdog.watch(pid, dataDir));
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    public String username() {
        return "postgres";
    }

    /** The superuser's password (also in {@link #passwordFile}). */
    public String password() {
        return password;
    }

    public Path dataDir() {
        return dataDir;
    }

    private static void closeQuietly(EmbeddedPostgres pg) {
        try {
            pg.close();
        } catch (IOException e) {
            LOG.warn("Embedded PostgreSQL did not stop cleanly", e);
        }
    }

    @Override
    public void close() {
        closeQuietly(postgres);
        // If the ordinary stop gave up waiting, the watchdog finishes it.
        watchdog.ifPresent(PostmasterWatchdog::close);
        lock.close();
    }
}
