package io.lifeline.api.connector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.Refusal;
import io.lifeline.config.CloudConnectorConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.cloud.AwsNoticeTranslator;
import io.lifeline.connector.inbound.cloud.AzureScheduledEventsTranslator;
import io.lifeline.connector.inbound.cloud.GcpMetadataTranslator;
import io.lifeline.connector.inbound.cloud.ImdsDocument;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorNodeResolver;
import io.lifeline.connector.inbound.pipeline.ConnectorReceipt;
import io.lifeline.connector.outbound.cloud.LifecycleCompletions;
import io.lifeline.platform.Json;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.IngestScope;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Cloud interruption notices in the providers' own formats: AWS EventBridge events, EC2 instance metadata
 * documents, Azure Scheduled Events documents and GCE metadata values. Each answers like the event API: counts
 * and per-item errors, 400 when nothing usable came out of the body. The machine is mapped to its node by
 * {@link ConnectorNodeResolver}.
 */
@Path("/api/v1/connectors")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class CloudNoticesResource {

    /** An EventBridge array of more elements than this is refused (EventBridge itself sends one per request). */
    static final int MAX_EVENTBRIDGE_ITEMS = 1000;

    private static final ObjectMapper MAPPER = Json.untrusted();

    private final AwsNoticeTranslator aws;
    private final AzureScheduledEventsTranslator azure;
    private final GcpMetadataTranslator gcp;
    private final ConnectorIngest ingest;
    private final ConnectorMetrics metrics;
    private final CloudConnectorConfig config;
    private final Clock clock;
    private final CurrentCaller caller;
    private final LifecycleCompletions lifecycle;

    CloudNoticesResource(
            AwsNoticeTranslator aws,
            AzureScheduledEventsTranslator azure,
            GcpMetadataTranslator gcp,
            ConnectorIngest ingest,
            ConnectorMetrics metrics,
            CloudConnectorConfig config,
            Clock clock,
            CurrentCaller caller,
            LifecycleCompletions lifecycle) {
        this.caller = caller;
        this.lifecycle = lifecycle;
        this.aws = aws;
        this.azure = azure;
        this.gcp = gcp;
        this.ingest = ingest;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    /** One EventBridge event, or a JSON array of them (as an EventBridge API destination or an SQS relay sends). */
    @POST
    @Path("/aws/eventbridge")
    @Blocking
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> eventBridge(byte[] body) {
        Answers.requireEnabled(config.aws().enabled(), "the AWS connector");
        IngestScope.requireNodeEvents(caller.get(), "cloud notices");
        ConnectorBatch batch = new ConnectorBatch("aws");
        JsonNode root = readOrNull(body);
        if (root != null && root.isArray()) {
            if (root.size() > MAX_EVENTBRIDGE_ITEMS) {
                return CompletableFuture.completedFuture(Answers.unusable(List.of(new Refusal(
                        0,
                        null,
                        "too_many_items",
                        root.size() + " events; at most " + MAX_EVENTBRIDGE_ITEMS + " per request"))));
            }
            for (int i = 0; i < root.size(); i++) {
                byte[] item = bytes(root.get(i));
                batch.add(i, lifecycle(item, observed(aws.stats(), aws.fromEventBridge(item))));
            }
        } else {
            batch.add(0, lifecycle(body, observed(aws.stats(), aws.fromEventBridge(body))));
        }
        return Answers.submit(ingest, batch, caller.get());
    }

    /**
     * An EC2 instance metadata document read by a node agent: {@code document} is the metadata path
     * ({@code spot/instance-action}, {@code events/recommendations/rebalance}, {@code events/maintenance/scheduled},
     * {@code spot/termination-time}, {@code autoscaling/target-lifecycle-state}) or its short name
     * ({@code spot-instance-action}, {@code rebalance}, {@code maintenance}, {@code termination-time},
     * {@code target-lifecycle-state}).
     */
    @POST
    @Path("/aws/imds/{instanceId}/{document: .+}")
    @Blocking
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> imds(
            @PathParam("instanceId") String instanceId, @PathParam("document") String document, byte[] body) {
        Answers.requireEnabled(config.aws().enabled(), "the AWS connector");
        IngestScope.requireNodeEvents(caller.get(), "cloud notices");
        Translation t = aws.fromImds(instanceId, ImdsDocument.named(document), body, clock.instant());
        return Answers.submit(ingest, new ConnectorBatch("aws").add(0, observed(aws.stats(), t)), caller.get());
    }

    /** An Azure Scheduled Events document, as {@code GET /metadata/scheduledevents} returned it. */
    @POST
    @Path("/azure/scheduled-events")
    @Blocking
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> azureScheduledEvents(byte[] body) {
        Answers.requireEnabled(config.azure().enabled(), "the Azure connector");
        IngestScope.requireNodeEvents(caller.get(), "cloud notices");
        Translation t = azure.translate(body, clock.instant());
        return Answers.submit(ingest, new ConnectorBatch("azure").add(0, observed(azure.stats(), t)), caller.get());
    }

    /** The value of GCE {@code instance/preempted} ({@code TRUE} or {@code FALSE}) on instance {@code instanceId}. */
    @POST
    @Path("/gcp/{instanceId}/preempted")
    @Blocking
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> gcpPreempted(@PathParam("instanceId") String instanceId, byte[] body) {
        Answers.requireEnabled(config.gcp().enabled(), "the GCP connector");
        IngestScope.requireNodeEvents(caller.get(), "cloud notices");
        Translation t = gcp.preempted(instanceId, GcpMetadataTranslator.metadataValue(body), clock.instant());
        return Answers.submit(ingest, new ConnectorBatch("gcp").add(0, observed(gcp.stats(), t)), caller.get());
    }

    /** The value of GCE {@code instance/maintenance-event} on instance {@code instanceId}. */
    @POST
    @Path("/gcp/{instanceId}/{what: maintenance|maintenance-event}")
    @Blocking
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> gcpMaintenance(
            @PathParam("instanceId") String instanceId,
            @Parameter(
                            description = "The metadata key's name: maintenance-event, or maintenance for short",
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            enumeration = {"maintenance", "maintenance-event"}))
                    @PathParam("what")
                    String what,
            byte[] body) {
        Answers.requireEnabled(config.gcp().enabled(), "the GCP connector");
        IngestScope.requireNodeEvents(caller.get(), "cloud notices");
        Translation t = gcp.maintenanceEvent(instanceId, GcpMetadataTranslator.metadataValue(body), clock.instant());
        return Answers.submit(ingest, new ConnectorBatch("gcp").add(0, observed(gcp.stats(), t)), caller.get());
    }

    /** A lifecycle termination's action is remembered for its node, to be completed after the drain. */
    private Translation lifecycle(byte[] event, Translation t) {
        if (lifecycle.enabled() && t.events().size() == 1) {
            aws.lifecycleActionOf(event)
                    .ifPresent(a -> lifecycle.expect(t.events().get(0).subject(), a));
        }
        return t;
    }

    private Translation observed(TranslatorStats stats, Translation t) {
        metrics.observe(stats, t);
        return t;
    }

    private static JsonNode readOrNull(byte[] body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] bytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
