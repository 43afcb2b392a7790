package io.lifeline.objective.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.objective.SavedBook;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The objectives set through the API (table {@code objective_set}, one row holding the whole set). Each change is
 * audited as {@code objectives.updated} with the set before and after.
 */
@ApplicationScoped
public class ObjectiveStore {

    /** One objective as stored and as the API speaks it. */
    public record Stored(
            String name, String scope, double ettrTarget, String window, Double lostGpuHoursLimit, Double moneyLimit) {}

    private static final TypeReference<List<Stored>> LIST = new TypeReference<>() {};

    private final Jdbc jdbc;
    private final ObjectMapper json;
    private final ActionStore audit;

    public ObjectiveStore(AgroalDataSource dataSource, ObjectMapper json, ActionStore audit) {
        this.jdbc = new Jdbc(dataSource, "the objective store");
        this.json = json;
        this.audit = audit;
    }

    /** The set stored through the API, or empty when the API never set one. */
    public Optional<List<Stored>> load() {
        return jdbc.one("SELECT objectives FROM objective_set WHERE id = 1", rs -> read(rs.getString(1)));
    }

    /** Stores {@code after} as the whole set and audits the change. */
    public void save(List<Stored> before, List<Stored> after, String actor, Instant now) {
        jdbc.update(
                "INSERT INTO objective_set (id, objectives, updated_at, updated_by) VALUES (1, ?::jsonb, ?, ?)"
                        + " ON CONFLICT (id) DO UPDATE SET objectives = EXCLUDED.objectives,"
                        + " updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by",
                write(after),
                now,
                actor);
        audit.audit(new AuditEntry(
                0, now, actor, "objectives.updated", "objectives", null, null, describe(before), describe(after)));
    }

    /** The objectives' series as last saved, or empty. */
    public Optional<SavedBook> loadSeries() {
        return jdbc.one("SELECT state FROM objective_series WHERE id = 1", rs -> {
            try {
                return json.readValue(rs.getString(1), SavedBook.class);
            } catch (JsonProcessingException e) {
                // A state this version cannot read: the windows start again rather than the application not at all.
                return null;
            }
        });
    }

    /** Saves the objectives' series, replacing the last saved. */
    public void saveSeries(SavedBook book, Instant now) {
        String state;
        try {
            state = json.writeValueAsString(book);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("objective series could not be written as JSON", e);
        }
        jdbc.update(
                "INSERT INTO objective_series (id, state, saved_at) VALUES (1, ?::jsonb, ?)"
                        + " ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, saved_at = EXCLUDED.saved_at",
                state,
                now);
    }

    private static String describe(List<Stored> set) {
        if (set.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        for (Stored s : set) {
            if (b.length() > 0) {
                b.append("; ");
            }
            b.append(s.name())
                    .append(' ')
                    .append(s.scope())
                    .append(" ettr>=")
                    .append(s.ettrTarget())
                    .append(" over ")
                    .append(s.window());
            if (s.lostGpuHoursLimit() != null) {
                b.append(" lost<=").append(s.lostGpuHoursLimit()).append(" GPU-h");
            }
            if (s.moneyLimit() != null) {
                b.append(" lost<=").append(s.moneyLimit()).append(" money");
            }
        }
        return b.length() > 2000 ? b.substring(0, 2000) + "..." : b.toString();
    }

    private String write(List<Stored> set) {
        try {
            return json.writeValueAsString(set);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("objectives could not be written as JSON", e);
        }
    }

    private List<Stored> read(String s) {
        try {
            return json.readValue(s, LIST);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored objectives are not valid JSON", e);
        }
    }
}
