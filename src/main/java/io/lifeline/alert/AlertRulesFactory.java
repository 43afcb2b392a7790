package io.lifeline.alert;

import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertRules;
import io.lifeline.domain.alert.RuleSettings;
import io.lifeline.domain.alert.Severity;
import java.time.Duration;
import java.util.Map;

/** Builds the rules in force from {@code lifeline.alerts.rules.*} and {@code lifeline.alerts.namespaces.*}. */
final class AlertRulesFactory {

    private AlertRulesFactory() {}

    static AlertRules from(AlertsConfig config) {
        AlertRules rules = AlertRules.defaults();
        for (Map.Entry<String, AlertsConfig.RuleConfig> e : config.rules().entrySet()) {
            rules = rules.with(AlertRule.parse(e.getKey()), change(e.getValue()));
        }
        for (Map.Entry<String, AlertsConfig.NamespaceConfig> ns :
                config.namespaces().entrySet()) {
            for (Map.Entry<String, AlertsConfig.RuleConfig> e :
                    ns.getValue().rules().entrySet()) {
                rules = rules.withNamespace(ns.getKey(), AlertRule.parse(e.getKey()), change(e.getValue()));
            }
        }
        return rules;
    }

    /** The longest window any namespace gives a rule (how far back its inputs must reach). */
    static Duration longestWindow(AlertsConfig config, AlertRule rule) {
        Duration max = rule.defaults().window();
        AlertsConfig.RuleConfig fleet = config.rules().get(rule.key());
        if (fleet != null && fleet.window().isPresent() && fleet.window().get().compareTo(max) > 0) {
            max = fleet.window().get();
        }
        for (AlertsConfig.NamespaceConfig ns : config.namespaces().values()) {
            AlertsConfig.RuleConfig r = ns.rules().get(rule.key());
            if (r != null && r.window().isPresent() && r.window().get().compareTo(max) > 0) {
                max = r.window().get();
            }
        }
        return max;
    }

    private static RuleSettings.Override change(AlertsConfig.RuleConfig c) {
        return new RuleSettings.Override(
                c.enabled().orElse(null),
                c.threshold().isPresent() ? c.threshold().getAsDouble() : null,
                c.forDuration().orElse(null),
                c.window().orElse(null),
                c.severity().map(Severity::fromWire).orElse(null));
    }
}
