package io.lifeline.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.ActionStore;
import io.lifeline.action.AuditEntry;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Policy modes set through the API (table {@code policy}); configuration supplies the rest. */
@ApplicationScoped
public class PolicyStore {

    private final AgroalDataSource dataSource;
    private final ObjectMapper json;
    private final ActionStore audit;

    PolicyStore(AgroalDataSource dataSource, ObjectMapper json, ActionStore audit) {
        this.dataSource = dataSource;
        this.json = json;
        this.audit = audit;
    }

    /** Stored entries by policy; policies never set through the API are absent. */
    public Map<PolicyName, PolicySettings.Entry> load() throws SQLException {
        Map<PolicyName, PolicySettings.Entry> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT name, mode, overrides FROM policy")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    PolicyName name = PolicyName.fromWire(rs.getString(1)).orElse(null);
                    if (name == null) {
                        continue;
                    }
                    Map<String, PolicyMode> overrides = new HashMap<>();
                    readOverrides(rs.getString(3)).forEach((k, v) ->
                            PolicyMode.fromWire(v).ifPresent(m -> overrides.put(k, m)));
                    out.put(name, new PolicySettings.Entry(PolicyMode.fromWire(rs.getString(2)).orElseThrow(),
                            overrides));
                }
            }
        }
        return out;
    }

    public void save(PolicyName name, PolicySettings.Entry before, PolicySettings.Entry after, String actor,
                     Instant now) throws SQLException {
        Map<String, String> overrides = new HashMap<>();
        after.overrides().forEach((k, v) -> overrides.put(k, v.wire()));
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO policy (name, mode, overrides, updated_at, updated_by)"
                     + " VALUES (?, ?, ?::jsonb, ?, ?) ON CONFLICT (name) DO UPDATE SET mode = EXCLUDED.mode,"
                     + " overrides = EXCLUDED.overrides, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by")) {
            ps.setString(1, name.wire());
            ps.setString(2, after.mode().wire());
            ps.setString(3, write(overrides));
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setString(5, actor);
            ps.executeUpdate();
        }
        audit.audit(new AuditEntry(0, now, actor, "policy.updated", "policy:" + name.wire(), null, null,
                describe(before), describe(after)));
    }

    static String describe(PolicySettings.Entry e) {
        StringBuilder b = new StringBuilder(e.mode().wire());
        new java.util.TreeMap<>(e.overrides()).forEach((k, v) -> b.append(", ").append(k).append('=').append(v.wire()));
        return b.toString();
    }

    private Map<String, String> readOverrides(String s) {
        try {
            return json.readValue(s, new TypeReference<Map<String, String>>() { });
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
