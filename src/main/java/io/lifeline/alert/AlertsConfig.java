package io.lifeline.alert;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** Alert rules and delivery ({@code lifeline.alerts.*}); documented in docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.alerts")
public interface AlertsConfig {

    /** Whether rules are evaluated at all. */
    @WithDefault("true")
    boolean enabled();

    /** How often the rules are evaluated against the model. */
    @WithDefault("15s")
    Duration evaluationInterval();

    /**
     * Lifeline's address as receivers should link to it ({@code externalURL}, {@code generatorURL}), e.g.
     * {@code https://lifeline.example.com}.
     */
    @WithDefault("http://localhost:8080")
    String externalUrl();

    /** Most pending or firing alerts held; conditions beyond are dropped (and counted) until room frees up. */
    @WithDefault("10000")
    int maxAlerts();

    /** Resolved alerts kept in memory (and listed by the API). */
    @WithDefault("1000")
    int maxResolved();

    /** Resolved alerts, finished notifications and delivery attempts older than this are deleted from the store. */
    @WithDefault("7d")
    Duration retention();

    /** Most silences in force or pending at once (creating more is refused). */
    @WithDefault("1000")
    int maxSilences();

    /** Fleet-wide changes to the built-in rules, by rule key ({@code checkpoint-stale}, {@code restart-loop}...). */
    Map<String, RuleConfig> rules();

    /** Per-namespace changes, on top of the fleet-wide ones: {@code namespaces."<ns>".rules."<rule>".*}. */
    Map<String, NamespaceConfig> namespaces();

    /** Where alerts go. */
    List<ReceiverConfig> receivers();

    /** Webhook and Slack delivery. */
    Delivery delivery();

    /** Alertmanager delivery. */
    Alertmanager alertmanager();

    /** Changes to one rule; absent fields keep the built-in (or fleet-wide) value. */
    interface RuleConfig {
        /** Switches the rule on or off. */
        Optional<Boolean> enabled();

        /** The rule's number (ratio, count or depth: see docs/operations.md). */
        OptionalDouble threshold();

        /** How long the condition must hold before the alert fires. */
        @WithName("for")
        Optional<Duration> forDuration();

        /** Look-back window of count and event rules. */
        Optional<Duration> window();

        /** {@code info}, {@code warning} or {@code critical}. */
        Optional<String> severity();
    }

    /** One namespace's changes. */
    interface NamespaceConfig {
        Map<String, RuleConfig> rules();
    }

    /** One receiver. */
    interface ReceiverConfig {
        /** Name (unique; the {@code receiver} of webhook payloads and the name in delivery records). */
        String name();

        /** {@code alertmanager}, {@code webhook} or {@code slack}. */
        String kind();

        /**
         * Alertmanager: its base address (Lifeline posts to {@code <url>/api/v2/alerts}); webhook and Slack: the
         * address to post to. Never logged (Slack addresses carry a secret).
         */
        String url();

        /** Webhook: the HMAC-SHA256 signing secret. Never logged or returned. */
        Optional<String> secret();
    }

    /** {@code lifeline.alerts.delivery.*}. */
    interface Delivery {
        /** Most attempts per notification and receiver before it is given up (and recorded as failed). */
        @WithDefault("8")
        int maxAttempts();

        /** Wait before the second attempt; doubled for each further one. */
        @WithDefault("2s")
        Duration initialBackoff();

        /** Longest wait between attempts. */
        @WithDefault("5m")
        Duration maxBackoff();

        /** Timeout of one HTTP request (connect and answer). */
        @WithDefault("10s")
        Duration timeout();

        /** How often due notifications are looked for (the scheduler's resolution is one second). */
        @WithDefault("1s")
        Duration pollInterval();
    }

    /** {@code lifeline.alerts.alertmanager.*}. */
    interface Alertmanager {
        /**
         * How often firing alerts are sent again while they fire (Alertmanager forgets an alert whose {@code endsAt}
         * passes; Lifeline sets it to four times the larger of this and the evaluation interval).
         */
        @WithDefault("1m")
        Duration resendInterval();

        /** How long resolved alerts are still sent (so that a lost request does not leave them firing). */
        @WithDefault("15m")
        Duration resolvedResendFor();
    }
}
