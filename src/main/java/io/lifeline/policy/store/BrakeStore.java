package io.lifeline.policy.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.AutomationBrake.State;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
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

    private final Jdbc jdbc;
    private final ActionStore audit;

    @jakarta.inject.Inject
    BrakeStore(AgroalDataSource dataSource, ActionStore audit) {
        this((DataSource) dataSource, audit);
    }

    /** A store over any data source (tests and tools). */
    public BrakeStore(DataSource dataSource, ActionStore audit) {
        this.jdbc = new Jdbc(dataSource, "the brake's store");
        this.audit = audit;
    }

    /** A change: the state to store, what to answer, and the audit entries it makes (none for most). */
    public record Change<T>(State state, T answer, List<AuditEntry> audit) {}

    /** The stored state. */
    public State read() {
        return jdbc.one("SELECT state FROM automation_brake WHERE id = 1", rs -> decode(rs.getString(1)))
                .orElse(State.INITIAL);
    }

    /**
     * Reads the state under the row's lock, applies {@code step}, stores the state it returns (when it differs) and
     * commits; then writes its audit entries.
     */
    public <T> T update(Function<State, Change<T>> step, Instant now) {
        Change<T> change = jdbc.inTransaction(c -> {
            State before = Jdbc.one(
                            c,
                            "SELECT state FROM automation_brake WHERE id = 1 FOR UPDATE",
                            rs -> decode(rs.getString(1)))
                    .orElse(null);
            Change<T> next = step.apply(before == null ? State.INITIAL : before);
            if (before == null || !next.state().equals(before)) {
                Jdbc.update(
                        c,
                        "INSERT INTO automation_brake (id, state, updated_at) VALUES (1, ?::jsonb, ?)"
                                + " ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at",
                        encode(next.state()),
                        now);
            }
            return next;
        });
        for (AuditEntry e : change.audit()) {
            audit.audit(e);
        }
        return change.answer();
    }

    public static String encode(State s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("brake state could not be encoded", e);
        }
    }

    /** The state from its JSON; the empty object of a fresh table is the initial state. */
    public static State decode(String json) {
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
