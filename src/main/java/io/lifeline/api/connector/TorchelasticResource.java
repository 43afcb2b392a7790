package io.lifeline.api.connector;

import io.lifeline.codec.InvalidEventException;
import io.lifeline.config.TorchelasticConnectorConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorJobResolver;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorReceipt;
import io.lifeline.connector.inbound.torchelastic.JobBinding;
import io.lifeline.connector.inbound.torchelastic.JobResolver;
import io.lifeline.connector.inbound.torchelastic.TorchelasticTranslator;
import io.lifeline.ingest.TrainerPlacement;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.identity.Caller;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * torchelastic's own event lines ({@code torchelastic.worker.status.*} and rendezvous events), one JSON object per
 * line: the output of torchelastic's console event handler, as a log shipper forwards it. The run is mapped to its
 * job by {@code ?job=namespace/name} (every line of the request), or by {@link ConnectorJobResolver};
 * {@code ?procsPerNode=} supplies the processes per node when no mapping knows them.
 */
@Path("/api/v1/connectors/torchelastic")
public class TorchelasticResource {

    private final TorchelasticTranslator translator;
    private final ConnectorJobResolver jobs;
    private final ConnectorIngest ingest;
    private final ConnectorMetrics metrics;
    private final TorchelasticConnectorConfig config;
    private final Clock clock;
    private final CurrentCaller caller;
    private final TrainerPlacement placement;

    TorchelasticResource(
            TorchelasticTranslator translator,
            ConnectorJobResolver jobs,
            ConnectorIngest ingest,
            ConnectorMetrics metrics,
            TorchelasticConnectorConfig config,
            Clock clock,
            CurrentCaller caller,
            TrainerPlacement placement) {
        this.caller = caller;
        this.placement = placement;
        this.translator = translator;
        this.jobs = jobs;
        this.ingest = ingest;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    @POST
    @Blocking
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> post(
            byte[] body, @QueryParam("job") String job, @QueryParam("procsPerNode") Integer procsPerNode) {
        Answers.requireEnabled(config.enabled(), "the torchelastic connector");
        if (job != null && !job.isBlank() && !JobBinding.isValidJob(job.trim())) {
            throw new InvalidEventException("job: must be namespace/name, got '" + job + "'");
        }
        if (procsPerNode != null && (procsPerNode < 1 || procsPerNode > 1024)) {
            throw new InvalidEventException("procsPerNode: must be between 1 and 1024, got " + procsPerNode);
        }
        JobResolver request = jobs.requestMapping(job, procsPerNode);
        ConnectorBatch batch = jobs.with(request, () -> translateLines(body, clock.instant()));
        Caller c = caller.get();
        return Answers.submit(ingest, batch, c, e -> placement.refusal(c, e));
    }

    /** One translation per non-blank line; the index of an error is the line number minus one. */
    private ConnectorBatch translateLines(byte[] body, Instant receivedAt) {
        ConnectorBatch batch = new ConnectorBatch("torchelastic");
        String text = new String(body, StandardCharsets.UTF_8);
        int line = 0;
        int lines = 0;
        int start = 0;
        while (start <= text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            String l = text.substring(start, end).strip();
            if (!l.isEmpty()) {
                if (++lines > config.maxLines()) {
                    throw new InvalidEventException(
                            "more than " + config.maxLines() + " lines in one request; split it");
                }
                batch.add(line, metricsObserved(translator.translate(l, receivedAt)));
            }
            line++;
            if (nl < 0) {
                break;
            }
            start = nl + 1;
        }
        return batch;
    }

    private Translation metricsObserved(Translation t) {
        metrics.observe(translator.stats(), t);
        return t;
    }
}
