package io.lifeline.alert.receiver;

import java.net.URI;
import java.util.Objects;

/**
 * Where alerts go. {@link #toString()} leaves out the address and the secret: both can be credentials (a Slack
 * address is one), so neither may reach a log line.
 *
 * @param name    unique name
 * @param kind    how it is spoken to
 * @param url     address (Alertmanager: its base address)
 * @param secret  webhook signing secret, or null
 */
public record Receiver(String name, ReceiverKind kind, URI url, String secret) {

    public Receiver {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("receiver: a name is required");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(url, "url");
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("receiver " + name + ": the url must be http or https");
        }
        secret = secret == null || secret.isEmpty() ? null : secret;
    }

    /** The address Lifeline posts to. */
    public URI target() {
        if (kind != ReceiverKind.ALERTMANAGER) {
            return url;
        }
        String base = url.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/api/v2/alerts");
    }

    @Override
    public String toString() {
        return "Receiver[" + name + ", " + kind.wire() + "]";
    }
}
