package io.lifeline.alert;

import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The receivers in force: those configured under {@code lifeline.alerts.receivers}, plus any registered at run time
 * by the application itself (tests use this to point at receivers they start on free ports). Not exposed by the API.
 */
@ApplicationScoped
public class AlertReceivers {

    private static final Logger LOG = Logger.getLogger(AlertReceivers.class);

    private final Map<String, Receiver> receivers = new ConcurrentHashMap<>();

    AlertReceivers(AlertsConfig config) {
        for (AlertsConfig.ReceiverConfig r : config.receivers()) {
            Receiver receiver = new Receiver(
                    r.name(),
                    ReceiverKind.fromWire(r.kind()),
                    URI.create(r.url()),
                    r.secret().orElse(null));
            if (receivers.containsKey(receiver.name())) {
                throw new IllegalArgumentException(
                        "lifeline.alerts.receivers: the name '" + receiver.name() + "' is used twice");
            }
            register(receiver);
        }
    }

    /** Adds or replaces a receiver by name. */
    public void register(Receiver r) {
        if (r.kind() == ReceiverKind.WEBHOOK && r.secret() == null) {
            LOG.warnf("Alert receiver %s has no secret: its webhooks are sent unsigned", r.name());
        }
        receivers.put(r.name(), r);
    }

    /** Removes a receiver; notifications still queued for it are given up. */
    public void remove(String name) {
        receivers.remove(name);
    }

    public Receiver find(String name) {
        return receivers.get(name);
    }

    /** Every receiver, by name. */
    public List<Receiver> all() {
        List<Receiver> out = new ArrayList<>(receivers.values());
        out.sort(java.util.Comparator.comparing(Receiver::name));
        return out;
    }

    public List<Receiver> ofKind(ReceiverKind kind) {
        return all().stream().filter(r -> r.kind() == kind).toList();
    }
}
