package io.lifeline.api.connector;

import io.lifeline.codec.Refusal;
import io.lifeline.config.KernelLogConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.kernel.KernelLogTranslator;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorReceipt;
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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Kernel-log lines of one node ({@code journalctl -k} or {@code dmesg} output, one line per line of the body), each
 * NVIDIA driver XID line a {@code gpu.xid} event; the answer is the event API's receipt, with each refused line's
 * index (0-based) and reason. Blank lines are skipped.
 */
@Path("/api/v1/connectors/kernel-log")
@Produces(MediaType.APPLICATION_JSON)
public class KernelLogResource {

    private final KernelLogTranslator translator;
    private final ConnectorMetrics metrics;
    private final ConnectorIngest ingest;
    private final KernelLogConfig config;
    private final Clock clock;
    private final CurrentCaller caller;

    KernelLogResource(
            DcgmScrapeTranslator dcgm,
            ConnectorIngest ingest,
            ConnectorMetrics metrics,
            KernelLogConfig config,
            Clock clock,
            CurrentCaller caller) {
        this.translator = new KernelLogTranslator(dcgm.pciBusIds());
        metrics.register(translator.stats());
        this.ingest = ingest;
        this.config = config;
        this.clock = clock;
        this.caller = caller;
        this.metrics = metrics;
    }

    /** Lines of {@code node}'s kernel log. */
    @POST
    @Path("/{node}")
    @Blocking
    @Consumes(MediaType.WILDCARD)
    @APIResponse(
            responseCode = "200",
            description = ConnectorReceipt.DESCRIPTION,
            content = @Content(schema = @Schema(implementation = ConnectorReceipt.class)))
    public CompletionStage<Response> lines(@PathParam("node") String node, byte[] body) {
        Answers.requireEnabled(config.enabled(), "the kernel-log connector");
        IngestScope.requireNodeEvents(caller.get(), "kernel-log XIDs");
        List<String> lines = KernelLogTranslator.lines(new String(body, StandardCharsets.UTF_8));
        if (lines.size() > config.maxLines()) {
            return CompletableFuture.completedFuture(Answers.unusable(List.of(new Refusal(
                    0,
                    null,
                    "too_many_lines",
                    lines.size() + " lines; at most " + config.maxLines() + " per request"))));
        }
        Instant now = clock.instant();
        ConnectorBatch batch = new ConnectorBatch("kernel-log");
        List<Translation> translations = translator.lines(node, lines, now);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            Translation t = translations.get(i);
            metrics.observe(translator.stats(), t);
            batch.add(i, t);
        }
        return Answers.submit(ingest, batch, caller.get());
    }
}
