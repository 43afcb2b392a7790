package io.lifeline.api.connector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.Refusal;
import io.lifeline.config.NvSentinelConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.nvsentinel.NvSentinelTranslator;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorReceipt;
import io.lifeline.platform.Json;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.IngestScope;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * NVSentinel health events: the sink of NVSentinel's event exporter ({@code exporter.sink.endpoint}), which POSTs
 * one CloudEvent ({@code application/cloudevents+json}) per health event; a JSON array of them or of bare
 * HealthEvents is taken too. Answers like the event API: the good members of an array are kept, each bad one
 * reported with its index and reason.
 */
@Path("/api/v1/connectors/nvsentinel")
@Produces(MediaType.APPLICATION_JSON)
public class NvSentinelResource {

    static final int MAX_ITEMS = 1000;
    private static final ObjectMapper MAPPER = Json.untrusted();

    private final NvSentinelTranslator translator;
    private final ConnectorIngest ingest;
    private final ConnectorMetrics metrics;
    private final NvSentinelConfig config;
    private final Clock clock;
    private final CurrentCaller caller;

    NvSentinelResource(
            DcgmScrapeTranslator dcgm,
            ConnectorIngest ingest,
            ConnectorMetrics metrics,
            NvSentinelConfig config,
            Clock clock,
            CurrentCaller caller) {
        this.translator = new NvSentinelTranslator(dcgm.pciBusIds());
        metrics.register(translator.stats());
        this.ingest = ingest;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
        this.caller = caller;
    }

    /** One health event CloudEvent, or an array. */
    @POST
    @Blocking
    @Consumes(MediaType.WILDCARD)
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> healthEvents(byte[] body) {
        Answers.requireEnabled(config.enabled(), "the NVSentinel connector");
        IngestScope.requireNodeEvents(caller.get(), "NVSentinel health events");
        ConnectorBatch batch = new ConnectorBatch("nvsentinel");
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (IOException e) {
            String why = e.getMessage() == null
                    ? "unreadable"
                    : e.getMessage().lines().findFirst().orElse("");
            batch.add(
                    0,
                    observed(translator.malformed(
                            "not JSON: " + (why.length() <= 160 ? why : why.substring(0, 157) + "..."))));
            return Answers.submit(ingest, batch, caller.get());
        }
        Instant now = clock.instant();
        if (root != null && root.isArray()) {
            if (root.size() > MAX_ITEMS) {
                return CompletableFuture.completedFuture(Answers.unusable(List.of(new Refusal(
                        0, null, "too_many_items", root.size() + " events; at most " + MAX_ITEMS + " per request"))));
            }
            for (int i = 0; i < root.size(); i++) {
                batch.add(i, observed(translator.translate(root.get(i), now)));
            }
        } else {
            batch.add(0, observed(translator.translate(root, now)));
        }
        return Answers.submit(ingest, batch, caller.get());
    }

    private Translation observed(Translation t) {
        metrics.observe(translator.stats(), t);
        return t;
    }
}
