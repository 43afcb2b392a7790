package io.lifeline.app;

import io.lifeline.eventlog.ShutdownOrder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The embedded database of the quick start in a JVM of its own, started as {@link LifelineMain} starts it (launch
 * settings as system properties). {@code write <marker>}: stores the marker, prints {@code READY <postmaster pid>}
 * and waits to be killed. {@code read}: prints {@code ROW <marker>} for every stored marker and exits normally.
 */
final class QuickStartDatabaseProcess {

    private QuickStartDatabaseProcess() {}

    public static void main(String... args) throws Exception {
        EmbeddedDatabase db = LifelineMain.startEmbeddedDatabase();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS marker (v text)");
            if (args[0].equals("write")) {
                s.execute("INSERT INTO marker VALUES ('" + args[1] + "')");
                long pid = PostmasterPidFile.read(db.dataDir()).orElseThrow().pid();
                System.out.println("READY " + pid);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            try (ResultSet rs = s.executeQuery("SELECT v FROM marker")) {
                while (rs.next()) {
                    System.out.println("ROW " + rs.getString(1));
                }
            }
        }
        System.out.flush();
        ShutdownOrder.applicationStopped();
        System.exit(0);
    }
}
