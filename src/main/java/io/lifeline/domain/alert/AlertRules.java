package io.lifeline.domain.alert;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The rule settings in force: built-in defaults, changed fleet-wide, then per namespace. Immutable; build with
 * {@link #defaults()} and the {@code with...} methods.
 */
public final class AlertRules {

    private final Map<AlertRule, RuleSettings> fleet;
    private final Map<String, Map<AlertRule, RuleSettings>> namespaces;

    private AlertRules(Map<AlertRule, RuleSettings> fleet, Map<String, Map<AlertRule, RuleSettings>> namespaces) {
        this.fleet = fleet;
        this.namespaces = namespaces;
    }

    /** Every rule with its built-in settings. */
    public static AlertRules defaults() {
        Map<AlertRule, RuleSettings> m = new EnumMap<>(AlertRule.class);
        for (AlertRule r : AlertRule.values()) {
            m.put(r, r.defaults());
        }
        return new AlertRules(m, Map.of());
    }

    /** These rules with {@code rule} changed fleet-wide (namespace overrides made earlier apply on top of the old value). */
    public AlertRules with(AlertRule rule, RuleSettings.Override change) {
        Map<AlertRule, RuleSettings> m = new EnumMap<>(fleet);
        m.put(rule, change.applyTo(fleet.get(rule)));
        return new AlertRules(m, namespaces);
    }

    /** These rules with {@code rule} changed for one namespace only, on top of the fleet-wide settings. */
    public AlertRules withNamespace(String namespace, AlertRule rule, RuleSettings.Override change) {
        Objects.requireNonNull(namespace, "namespace");
        Map<String, Map<AlertRule, RuleSettings>> ns = new HashMap<>(namespaces);
        Map<AlertRule, RuleSettings> m = new EnumMap<>(AlertRule.class);
        m.putAll(ns.getOrDefault(namespace, Map.of()));
        m.put(rule, change.applyTo(m.getOrDefault(rule, fleet.get(rule))));
        ns.put(namespace, m);
        return new AlertRules(fleet, Map.copyOf(ns));
    }

    /** The settings for {@code rule} in {@code namespace} (null: the fleet-wide settings). */
    public RuleSettings settings(AlertRule rule, String namespace) {
        if (namespace != null) {
            Map<AlertRule, RuleSettings> m = namespaces.get(namespace);
            if (m != null && m.containsKey(rule)) {
                return m.get(rule);
            }
        }
        return fleet.get(rule);
    }

    /** Whether {@code rule} is on anywhere (fleet-wide or in some namespace). */
    public boolean enabledAnywhere(AlertRule rule) {
        if (fleet.get(rule).enabled()) {
            return true;
        }
        for (Map<AlertRule, RuleSettings> m : namespaces.values()) {
            RuleSettings s = m.get(rule);
            if (s != null && s.enabled()) {
                return true;
            }
        }
        return false;
    }
}
