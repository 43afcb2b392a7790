package io.lifeline.app;

import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.security.OwnerOnlyFiles;
import io.quarkus.runtime.ApplicationLifecycleManager;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Entry point. With no JDBC URL configured (system property or {@code QUARKUS_DATASOURCE_JDBC_URL}),
 * Lifeline starts an embedded PostgreSQL whose data stays in {@code .lifeline/pgdata} (override with
 * {@code lifeline.database.embedded-dir} / {@code LIFELINE_DATABASE_EMBEDDED_DIR}; commits are synchronous unless
 * {@code lifeline.database.embedded-synchronous-commit} is {@code off}) and the password every connection to it needs
 * in {@code .lifeline/pgdata.password}, and turns the demo fleet on unless
 * {@code lifeline.demo.enabled} says otherwise.
 */
@QuarkusMain
public final class LifelineMain {

    public static void main(String... args) {
        if (setting("quarkus.datasource.jdbc.url") == null) {
            startEmbeddedDatabase();
            // The quick start is a local demo: Prometheus or curl may scrape without a token. The log says so, and
            // production configuration (an external database) keeps /metrics behind a viewer token.
            if (setting("lifeline.security.metrics-protected") == null) {
                System.setProperty("lifeline.security.metrics-protected", "false");
            }
            if (setting("lifeline.demo.enabled") == null) {
                System.setProperty("lifeline.demo.enabled", "true");
                // The demo shows the whole loop: notices and fatal XIDs are acted on, not only reported. A job
                // suspended for restarting in a loop would stay suspended, so that policy only records dry runs; so
                // does the recovery ladder, whose top rung stops a job (its advice still shows on the job pages).
                if (setting("lifeline.policies.default-mode") == null) {
                    System.setProperty("lifeline.policies.default-mode", "on");
                    System.setProperty("lifeline.policies.mode.restart-loop-suspend", "dry-run");
                    System.setProperty("lifeline.policies.mode.recovery-ladder", "dry-run");
                }
                // Illustrative prices per GPU-hour for the demo's pools, so that
                // the job page's spot-vs-on-demand verdict has something to compare.
                demoPrice("spot-p5", "spot", "3.90");
                demoPrice("spot-p5", "on-demand", "12.29");
                demoPrice("ondemand-p4d", "spot", "1.65");
                demoPrice("ondemand-p4d", "on-demand", "4.10");
            }
        }
        // A start that fails exits through this handler: the store will write nothing more, so the embedded
        // database's stop must not wait for it (it waited its whole bound, ignoring SIGTERM meanwhile).
        BiConsumer<Integer, Throwable> exit = ApplicationLifecycleManager.getDefaultExitCodeHandler();
        Quarkus.run(
                null,
                (code, failure) -> {
                    if (failure != null) {
                        ShutdownOrder.applicationStopped();
                        // Quarkus logs why before its logging is set up, and that message is lost when the JVM exits at
                        // once: say it here too.
                        System.err.println("lifeline: failed to start: " + rootCause(failure));
                        System.err.flush();
                    }
                    exit.accept(code, failure);
                },
                args);
    }

    private static Throwable rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static void demoPrice(String pool, String capacity, String price) {
        String key = "lifeline.spot.price.\"" + pool + "\"." + capacity;
        if (System.getProperty(key) == null) {
            System.setProperty(key, price);
        }
    }

    /** Starts the embedded server from the launch settings, points the datasource at it and stops it at exit. */
    static EmbeddedDatabase startEmbeddedDatabase() {
        String dir = setting("lifeline.database.embedded-dir");
        if (dir == null) {
            privateStateDirectory();
        }
        boolean synchronousCommit =
                EmbeddedDatabase.parseSynchronousCommit(setting("lifeline.database.embedded-synchronous-commit"));
        EmbeddedDatabase db = EmbeddedDatabase.start(
                Path.of(dir == null ? ".lifeline/pgdata" : dir).toAbsolutePath(), synchronousCommit);
        System.setProperty("quarkus.datasource.jdbc.url", db.jdbcUrl());
        System.setProperty("quarkus.datasource.username", db.username());
        System.setProperty("quarkus.datasource.password", db.password());
        System.setProperty("lifeline.database.embedded", "true");
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            // Shutdown hooks run concurrently: let the application flush its last batch first.
                            if (!ShutdownOrder.awaitApplicationStopped()) {
                                System.err.println(
                                        "lifeline: stopping the embedded database before the application finished writing");
                            }
                            db.close();
                        },
                        "lifeline-embedded-db-stop"));
        return db;
    }

    /** {@code .lifeline}, where the quick start keeps its database, password and first admin token: mode 700. */
    private static void privateStateDirectory() {
        try {
            OwnerOnlyFiles.directory(Path.of(".lifeline"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create .lifeline (mode 700) in the working directory", e);
        }
    }

    /** A setting from a system property or its environment-variable form, before configuration is loaded. */
    static String setting(String key) {
        String v = System.getProperty(key);
        if (v == null) {
            v = System.getenv(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return v == null || v.isBlank() ? null : v;
    }
}
