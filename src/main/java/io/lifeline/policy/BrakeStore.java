package io.lifeline.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.ActionStore;
import io.lifeline.action.AuditEntry;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.AutomationBrake.State;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The automation brake's state in PostgreSQL (table {@code automation_brake}, one row), so that every replica sees
 * the same brake and a new leader continues with the window and the engagement of the one before. A change is a
 * read under the row's lock, the pure {@link AutomationBrake} step and a write, in one transaction: a reset on one
 * replica and a decision on the leader never overwrite each other.
 */
@ApplicationScoped
public class BrakeStore {

    /** The state as stored: its own mapper, so that the stored form does not follow the REST API's JSON settings. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            // The records' components only: State.isEngaged() is no property of its own.
            .disable(MapperFeature.AUTO_DETECT_IS_GETTERS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final DataSource dataSource;
    private final ActionStore audit;

    @jakarta.inject.Inject
    BrakeStore(AgroalDataSource dataSource, ActionStore audit) {
        this((DataSource) dataSource, audit);
    }

    /** A store over any data source (tests and tools). */
    public BrakeStore(DataSource dataSource, ActionStore audit) {
        this.dataSource = dataSource;
        this.audit = audit;
    }

    /** A change: the state to store, what to answer, and the audit entries it makes (none for most). */
    public record Change<T>(State state, T answer, List<AuditEntry> audit) {
    }

    /** The stored state. */
    public State read() throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT state FROM automation_brake WHERE id = 1")) {
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? decode(rs.getString(1)) : State.INITIAL;
            }
        }
    }

    /**
     * Reads the state under the row's lock, applies {@code step}, stores the state it returns (when it differs) with
     * its audit entries, and commits.
     */
    public <T> T update(Function<State, Change<T>> step, Instant now) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                State before;
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT state FROM automation_brake WHERE id = 1 FOR UPDATE")) {
                    try (ResultSet rs = ps.executeQuery()) {
                        before = rs.next() ? decode(rs.getString(1)) : null;
                    }
                }
                Change<T> change = step.apply(before == null ? State.INITIAL : before);
                if (before == null || !change.state().equals(before)) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO automation_brake (id, state, updated_at)"
                            + " VALUES (1, ?::jsonb, ?) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state,"
                            + " updated_at = EXCLUDED.updated_at")) {
                        ps.setString(1, encode(change.state()));
                        ps.setTimestamp(2, Timestamp.from(now));
                        ps.executeUpdate();
                    }
                }
                c.commit();
                for (AuditEntry e : change.audit()) {
                    audit.audit(e);
                }
                return change.answer();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    static String encode(State s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("brake state could not be encoded", e);
        }
    }

    /** The state from its JSON; the empty object of a fresh table is the initial state. */
    static State decode(String json) {
        try {
            if (json == null || json.isBlank() || JSON.readTree(json).isEmpty()) {
                return State.INITIAL;
            }
            State s = JSON.readValue(json, State.class);
            return s.taken() == null ? State.INITIAL : s;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored brake state is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
