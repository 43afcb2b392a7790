package io.lifeline.api.connector;

import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorReceipt;
import io.lifeline.connector.inbound.scrape.DcgmScraper;
import io.lifeline.connector.inbound.scrape.EndpointStatus;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.IngestScope;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * dcgm-exporter over HTTP: scrapes pushed by a node agent ({@code POST /api/v1/connectors/dcgm/{node}}, a
 * {@code /metrics} body in Prometheus text 0.0.4 or OpenMetrics, chosen by Content-Type) and the status of the
 * endpoints Lifeline scrapes itself ({@code GET /api/v1/connectors/dcgm/endpoints}).
 */
@Path("/api/v1/connectors/dcgm")
@Produces(MediaType.APPLICATION_JSON)
public class DcgmResource {

    private final DcgmScrapeTranslator translator;
    private final DcgmScraper scraper;
    private final ConnectorIngest ingest;
    private final ConnectorMetrics metrics;
    private final ScrapeConfig config;
    private final Clock clock;
    private final CurrentCaller caller;

    DcgmResource(
            DcgmScrapeTranslator translator,
            DcgmScraper scraper,
            ConnectorIngest ingest,
            ConnectorMetrics metrics,
            ScrapeConfig config,
            Clock clock,
            CurrentCaller caller) {
        this.caller = caller;
        this.translator = translator;
        this.scraper = scraper;
        this.ingest = ingest;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    /** What each scraped endpoint last did: url, node, last success, last error, consecutive failures, stale. */
    @GET
    @Path("/endpoints")
    public List<EndpointStatus> endpoints() {
        return scraper.status();
    }

    /** A scrape body pushed for {@code node}. */
    @POST
    @Path("/{node}")
    @Blocking
    @Consumes(MediaType.WILDCARD)
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> push(
            @PathParam("node") String node, @HeaderParam("Content-Type") String contentType, byte[] body) {
        Answers.requireEnabled(config.push().enabled(), "pushing dcgm-exporter scrapes");
        IngestScope.requireNodeEvents(caller.get(), "GPU scrapes");
        Translation t = translator.translate(
                body, Format.fromContentType(contentType), new DcgmScrape("push/" + node, node, clock.instant()));
        metrics.observe(translator.stats(), t);
        return Answers.submit(ingest, new ConnectorBatch("dcgm").add(0, t), caller.get());
    }
}
