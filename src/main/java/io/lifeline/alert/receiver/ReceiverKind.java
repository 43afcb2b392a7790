package io.lifeline.alert.receiver;

import java.util.Locale;

/** How a receiver is spoken to. */
public enum ReceiverKind {
    /** Alertmanager's API v2: {@code POST /api/v2/alerts}, every firing alert again each resend interval. */
    ALERTMANAGER,
    /** A generic webhook: Alertmanager's webhook payload (version 4), signed, one POST per group change. */
    WEBHOOK,
    /** A Slack-compatible incoming webhook: {@code {"text": ...}}, one POST per group change. */
    SLACK;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ReceiverKind fromWire(String s) {
        for (ReceiverKind k : values()) {
            if (k.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("receiver kind: must be alertmanager, webhook or slack, got '" + s + "'");
    }
}
