package io.lifeline.connector.inbound.pipeline;

import io.lifeline.config.CloudConnectorConfig;
import io.lifeline.connector.inbound.cloud.InMemoryNodeResolver;
import io.lifeline.connector.inbound.cloud.NodeResolver;
import io.lifeline.connector.inbound.cloud.ProviderId;
import io.lifeline.connector.inbound.pipeline.store.RegistrationStore;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The node a cloud notice is about, from the provider's name for the machine. Fed by:
 * <ol>
 *   <li>the configured map {@code lifeline.connectors.cloud.nodes} (never forgotten);</li>
 *   <li>the Kubernetes Node informer ({@code spec.providerID}; forgotten when the Node is deleted);</li>
 *   <li>every submitted {@code node.registered} event that carries a {@code providerId}, whatever its transport
 *       (seen through {@link NodeRegistrationHook}, before it is stored, so that a notice posted right after the
 *       registration's answer finds the node);</li>
 *   <li>at start, the newest stored registration of every node whose last stored registration or termination is
 *       a registration, so that a restart does not forget the fleet.</li>
 * </ol>
 * A learned node is forgotten when the model has applied a registration or termination and the node is then
 * terminated (or unknown): a late {@code node.terminated}, older than the node's current state, changes neither the
 * node nor this mapping, so the node state and the resolver always agree.
 * Lookups accept an instance id, a provider id or an EC2 ARN, in any letter case, like
 * {@link InMemoryNodeResolver}. Memory: one entry per learned node; forgetting a node costs no scan. Thread-safe.
 */
@ApplicationScoped
public class ConnectorNodeResolver implements NodeResolver {

    private static final Logger LOG = Logger.getLogger(ConnectorNodeResolver.class);

    private final InMemoryNodeResolver configured = new InMemoryNodeResolver();
    /** Node by instance id (lower case); an Azure scale-set instance also under its {@code _SET_N} alias. */
    private final Map<String, String> nodeByInstance = new ConcurrentHashMap<>();
    /** The provider id each learned node was registered with, to forget it without a scan. */
    private final Map<String, ProviderId> idByNode = new ConcurrentHashMap<>();

    private final RegistrationStore registrations;
    private final ModelRuntime runtime;

    ConnectorNodeResolver(CloudConnectorConfig config, RegistrationStore registrations, ModelRuntime runtime) {
        this.registrations = registrations;
        this.runtime = runtime;
        config.nodes().forEach((machine, node) -> {
            if (machine.contains("://")) {
                configured.register(node, machine);
            } else {
                configured.registerInstance(machine, node);
            }
        });
    }

    @Override
    public String nodeFor(String instanceOrProviderId) {
        if (instanceOrProviderId == null || instanceOrProviderId.isBlank()) {
            return null;
        }
        String node = configured.nodeFor(instanceOrProviderId);
        if (node != null) {
            return node;
        }
        String s = instanceOrProviderId.trim();
        int arn = s.indexOf(":instance/");
        if (s.startsWith("arn:") && arn > 0) {
            return nodeByInstance.get(key(s.substring(arn + ":instance/".length())));
        }
        if (s.contains("://")) {
            try {
                return nodeByInstance.get(key(ProviderId.parse(s).instanceId()));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return nodeByInstance.get(key(s));
    }

    /** Learns a node's provider id; an id that is not a known provider's is ignored (returns false). */
    public boolean register(String node, String providerId) {
        if (node == null || providerId == null || providerId.isBlank()) {
            return false;
        }
        ProviderId id;
        try {
            id = ProviderId.parse(providerId.trim());
        } catch (IllegalArgumentException e) {
            LOG.debugf("Node %s: provider id not usable for cloud notices: %s", node, e.getMessage());
            return false;
        }
        ProviderId previous = idByNode.put(node, id);
        if (previous != null && !previous.instanceId().equalsIgnoreCase(id.instanceId())) {
            unmap(node, previous);
        }
        nodeByInstance.put(key(id.instanceId()), node);
        if (ProviderId.AZURE.equals(id.provider()) && id.instanceId().contains("_")) {
            nodeByInstance.put(key("_" + id.instanceId()), node);
        }
        return true;
    }

    /** Forgets what was learned about a node (configured entries stay). */
    public void forget(String node) {
        ProviderId id = idByNode.remove(node);
        if (id != null) {
            unmap(node, id);
        }
    }

    private void unmap(String node, ProviderId id) {
        nodeByInstance.remove(key(id.instanceId()), node);
        nodeByInstance.remove(key("_" + id.instanceId()), node);
    }

    /** Learns from submitted events: registrations with a provider id. */
    void learn(List<Event> events) {
        for (Event e : events) {
            if (e.type() == EventType.NODE_REGISTERED
                    && e.data() instanceof NodeData.Registered r
                    && r.providerId() != null) {
                register(e.subject(), r.providerId());
            }
        }
    }

    /**
     * Told of every event the model applied, on its thread: after a registration or termination, a node the model
     * holds as terminated (or no longer holds) is forgotten; a stale termination left the node live, and so it stays.
     */
    void onApplied(Event e, io.lifeline.domain.event.ApplyOutcome outcome, LiveModel model) {
        if (e.type() != EventType.NODE_TERMINATED && e.type() != EventType.NODE_REGISTERED) {
            return;
        }
        NodeLifecycle state = model.fleet().lifecycle(e.subject());
        if (state == null || state == NodeLifecycle.TERMINATED) {
            forget(e.subject());
        }
    }

    /** Number of nodes learned (not counting configured entries). */
    public int learnedNodes() {
        return idByNode.size();
    }

    void onOpened(@Observes @Priority(10) IngestOpened opened) {
        runtime.addApplyListener(this::onApplied);
        try {
            int n = loadStoredRegistrations();
            LOG.infof(
                    "Cloud notice node resolution: %d nodes from stored registrations, %d configured keys",
                    n, configured.size());
        } catch (StoreUnavailableException e) {
            LOG.warnf(
                    "Could not read stored node registrations (%s); nodes will be learned as they register",
                    e.getMessage());
        }
    }

    /**
     * Learns the newest stored registration of every node whose last stored registration or termination is a
     * registration; returns how many nodes it learned.
     *
     * @throws StoreUnavailableException when PostgreSQL cannot be asked
     */
    public int loadStoredRegistrations() {
        int n = 0;
        for (RegistrationStore.Registration r : registrations.live()) {
            if (register(r.node(), r.providerId())) {
                n++;
            }
        }
        return n;
    }

    private static String key(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }
}
