package io.lifeline.connector.inbound.pipeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.eventlog.Jdbc;
import io.lifeline.eventlog.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import javax.sql.DataSource;

/**
 * The node registrations the event log holds, read once at start so that the cloud notices' node resolution does not
 * forget the fleet across a restart.
 */
@ApplicationScoped
public class RegistrationStore {

    /** A node and the provider id it registered with. */
    public record Registration(String node, String providerId) {}

    /** The newest of each node's registrations and terminations, kept when it is a registration with a provider id. */
    static final String LIVE_REGISTRATIONS = """
            SELECT subject, data ->> 'providerId' FROM (
              SELECT DISTINCT ON (subject) subject, type, data FROM event_log
              WHERE type IN ('node.registered', 'node.terminated')
              ORDER BY subject, time DESC, seq DESC) latest
            WHERE type = 'node.registered' AND data ->> 'providerId' IS NOT NULL""";

    private final Jdbc jdbc;

    @Inject
    RegistrationStore(AgroalDataSource dataSource) {
        this((DataSource) dataSource);
    }

    /** The registrations in {@code dataSource} (tests and tools). */
    public RegistrationStore(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource, "the stored node registrations");
    }

    /**
     * The newest stored registration of every node whose last stored registration or termination is a registration
     * carrying a provider id.
     *
     * @throws StoreUnavailableException when PostgreSQL cannot be asked
     */
    public List<Registration> live() {
        return jdbc.list(LIVE_REGISTRATIONS, rs -> new Registration(rs.getString(1), rs.getString(2)));
    }
}
