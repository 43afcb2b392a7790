package io.lifeline.domain.alert;

import java.util.Map;

/**
 * A rule's condition found to hold for one set of labels in one evaluation.
 *
 * @param rule         the rule
 * @param namespace    the namespace it concerns, or null
 * @param labels       identifying labels (without {@code alertname} and {@code severity}: the engine adds them)
 * @param annotations  summary and description
 * @param value        the measured value
 * @param settings     the rule's settings for that namespace
 */
record Condition(
        AlertRule rule,
        String namespace,
        Map<String, String> labels,
        Map<String, String> annotations,
        double value,
        RuleSettings settings) {}
