package io.lifeline.connector.inbound.pipeline;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Lets the cloud notice node resolution see node registrations and terminations that the pipeline accepted,
 * from any transport (event API, Kafka, connectors), without the pipeline knowing about it: a decorator of the
 * {@link IngestGateway} that passes every submission through unchanged and hands its {@code node.registered} and
 * {@code node.terminated} events to {@link ConnectorNodeResolver} as they are submitted (events reach the gateway
 * validated; learning before the store acknowledges means a notice posted right after a registration's answer
 * always finds the node). Costs one type comparison per event.
 */
@Decorator
@Priority(10)
public abstract class NodeRegistrationHook implements IngestGateway {

    private static final Logger LOG = Logger.getLogger(NodeRegistrationHook.class);

    @Inject
    @Delegate
    @Any
    IngestGateway delegate;

    @Inject
    ConnectorNodeResolver nodes;

    @Override
    public CompletionStage<IngestReceipt> submit(List<Event> events, ConsumedOffsets offsets) {
        List<Event> nodeEvents = null;
        for (Event e : events) {
            if (e.type() == EventType.NODE_REGISTERED || e.type() == EventType.NODE_TERMINATED) {
                if (nodeEvents == null) {
                    nodeEvents = new ArrayList<>();
                }
                nodeEvents.add(e);
            }
        }
        if (nodeEvents != null) {
            try {
                nodes.learn(nodeEvents);
            } catch (RuntimeException e) {
                LOG.warnf("Could not learn node provider ids from a submission: %s", e.toString());
            }
        }
        return delegate.submit(events, offsets);
    }
}
