package io.lifeline.testing;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;

/**
 * An embedded PostgreSQL server of its own with the application's schema, for tests of store classes outside the
 * application: several instances of a class over one database play several replicas.
 */
public final class MigratedPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;
    private final AgroalDataSource dataSource;

    private MigratedPostgres(EmbeddedPostgres server, AgroalDataSource dataSource) {
        this.server = server;
        this.dataSource = dataSource;
    }

    /** Starts a server in a fresh directory and migrates it. */
    public static MigratedPostgres start(String name) throws Exception {
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setDataDirectory(Files.createTempDirectory(name))
                .setCleanDataDirectory(true)
                .start();
        Flyway.configure()
                .dataSource(server.getPostgresDatabase())
                .locations("classpath:db/migration")
                .load()
                .migrate();
        String url = server.getJdbcUrl("postgres", "postgres");
        AgroalDataSource db = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(p -> p.maxSize(12)
                        .connectionFactoryConfiguration(f -> f.jdbcUrl(url).principal(new NamePrincipal("postgres")))));
        return new MigratedPostgres(server, db);
    }

    public AgroalDataSource dataSource() {
        return dataSource;
    }

    /** Runs one statement and answers the first column of its first row as a long (count queries). */
    public long queryLong(String sql) throws SQLException {
        try (var c = dataSource.getConnection();
                var st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws Exception {
        dataSource.close();
        server.close();
    }
}
