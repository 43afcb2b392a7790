package io.lifeline.alert.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.eventlog.StoreCalls;
import io.lifeline.eventlog.StoreUnavailableException;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Silences in PostgreSQL (table {@code alert_silence} of V4), mapped with Hibernate ORM with Panache
 * ({@link StoredSilence}). Each call is one short transaction; a failing database is a
 * {@link StoreUnavailableException} naming the alert store, as for the rest of the alert tables.
 */
@ApplicationScoped
public class SilenceStore {

    /** The store in the words of an error message: silences are part of the alert store to whoever reads it. */
    private static final String WHAT = "the alert store";

    private static final TypeReference<List<StoredMatcher>> MATCHERS = new TypeReference<>() {};
    private static final Sort NEWEST_END_FIRST =
            Sort.by("endsAt", Sort.Direction.Descending).and("id");

    /** A matcher as stored (and as the API shows it). */
    public record StoredMatcher(String name, String value, String type) {}

    private final ObjectMapper json;

    public SilenceStore(ObjectMapper json) {
        this.json = json;
    }

    public void insert(Silence s, Instant createdAt) {
        String matchers = write(s.matchers().stream()
                .map(m -> new StoredMatcher(m.name(), m.value(), m.type().operator()))
                .toList());
        inTransaction(() -> {
            StoredSilence row = new StoredSilence();
            row.id = s.id();
            row.matchers = matchers;
            row.startsAt = s.startsAt();
            row.endsAt = s.endsAt();
            row.createdBy = s.createdBy();
            row.comment = s.comment();
            row.createdAt = createdAt;
            row.persist();
            return null;
        });
    }

    /** Silences not yet ended at {@code now} (active or pending), plus ended ones when {@code expired}. */
    public List<Silence> list(Instant now, boolean expired, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return inTransaction(() -> {
            PanacheQuery<StoredSilence> q = expired
                    ? StoredSilence.findAll(NEWEST_END_FIRST)
                    : StoredSilence.find("endsAt > ?1", NEWEST_END_FIRST, now);
            List<StoredSilence> rows = q.page(Page.ofSize(limit)).list();
            return rows.stream().map(this::silence).toList();
        });
    }

    public Optional<Silence> find(String id) {
        return inTransaction(
                () -> StoredSilence.<StoredSilence>findByIdOptional(id).map(this::silence));
    }

    /** Ends a silence at {@code now}; an ended one stays as it was. Empty when there is no such silence. */
    public Optional<Silence> expire(String id, Instant now, String by) {
        return inTransaction(() -> {
            StoredSilence row = StoredSilence.findById(id);
            if (row == null) {
                return Optional.empty();
            }
            Silence s = silence(row);
            if (s.expiredAt(now)) {
                return Optional.of(s);
            }
            Silence ended = s.expire(now);
            // Written at commit: the row is managed, so the change is the update.
            row.startsAt = ended.startsAt();
            row.endsAt = ended.endsAt();
            row.expiredBy = by;
            return Optional.of(ended);
        });
    }

    /** Deletes the silences that ended before {@code before}. */
    public void deleteEndedBefore(Instant before) {
        inTransaction(() -> StoredSilence.delete("endsAt < ?1", before));
    }

    /**
     * Runs {@code work} in a transaction (joining one the caller holds). Hibernate's failures, and a commit the
     * database refuses, are the store's unavailability, as {@code Jdbc} reports it for hand-written SQL.
     */
    private static <T> T inTransaction(Callable<T> work) {
        return StoreCalls.call(WHAT, () -> QuarkusTransaction.joiningExisting().call(work));
    }

    private Silence silence(StoredSilence row) {
        List<StoredMatcher> stored;
        try {
            stored = json.readValue(row.matchers, MATCHERS);
        } catch (JsonProcessingException e) {
            throw new StoreUnavailableException(
                    WHAT, new IllegalStateException("unreadable matchers of silence " + row.id, e));
        }
        List<Matcher> matchers = stored.stream()
                .map(m -> new Matcher(m.name(), m.value(), type(m.type())))
                .toList();
        return new Silence(row.id, matchers, row.startsAt, row.endsAt, row.createdBy, row.comment);
    }

    static Matcher.Type type(String operator) {
        for (Matcher.Type t : Matcher.Type.values()) {
            if (t.operator().equals(operator) || t.name().equalsIgnoreCase(operator)) {
                return t;
            }
        }
        throw new IllegalArgumentException("matchers: type must be one of =, !=, =~, !~, got '" + operator + "'");
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
