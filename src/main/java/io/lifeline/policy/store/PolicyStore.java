package io.lifeline.policy.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Policy modes set through the API (table {@code policy}); configuration supplies the rest. */
@ApplicationScoped
public class PolicyStore {

    private final Jdbc jdbc;
    private final ObjectMapper json;
    private final ActionStore audit;

    public PolicyStore(AgroalDataSource dataSource, ObjectMapper json, ActionStore audit) {
        this.jdbc = new Jdbc(dataSource, "the policy store");
        this.json = json;
        this.audit = audit;
    }

    /** Stored entries by policy; policies never set through the API are absent. */
    public Map<PolicyName, PolicySettings.Entry> load() {
        Map<PolicyName, PolicySettings.Entry> out = new HashMap<>();
        jdbc.list("SELECT name, mode, overrides FROM policy", rs -> {
            PolicyName name = PolicyName.fromWire(rs.getString(1)).orElse(null);
            if (name != null) {
                Map<String, PolicyMode> overrides = new HashMap<>();
                readOverrides(rs.getString(3))
                        .forEach((k, v) -> PolicyMode.fromWire(v).ifPresent(m -> overrides.put(k, m)));
                out.put(
                        name,
                        new PolicySettings.Entry(
                                PolicyMode.fromWire(rs.getString(2)).orElseThrow(), overrides));
            }
            return name;
        });
        return out;
    }

    public void save(
            PolicyName name, PolicySettings.Entry before, PolicySettings.Entry after, String actor, Instant now) {
        Map<String, String> overrides = new HashMap<>();
        after.overrides().forEach((k, v) -> overrides.put(k, v.wire()));
        jdbc.update(
                "INSERT INTO policy (name, mode, overrides, updated_at, updated_by) VALUES (?, ?, ?::jsonb, ?, ?)"
                        + " ON CONFLICT (name) DO UPDATE SET mode = EXCLUDED.mode, overrides = EXCLUDED.overrides,"
                        + " updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by",
                name.wire(),
                after.mode().wire(),
                write(overrides),
                now,
                actor);
        audit.audit(new AuditEntry(
                0,
                now,
                actor,
                "policy.updated",
                "policy:" + name.wire(),
                null,
                null,
                describe(before),
                describe(after)));
    }

    private static String describe(PolicySettings.Entry e) {
        StringBuilder b = new StringBuilder(e.mode().wire());
        new java.util.TreeMap<>(e.overrides())
                .forEach((k, v) -> b.append(", ").append(k).append('=').append(v.wire()));
        return b.toString();
    }

    private Map<String, String> readOverrides(String s) {
        try {
            return json.readValue(s, new TypeReference<Map<String, String>>() {});
        } catch (JsonProcessingException e) {
            return Map.of();
        }
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
