package io.lifeline.connector.inbound.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.cloud.AwsNoticeTranslator;
import io.lifeline.connector.inbound.cloud.AzureScheduledEventsTranslator;
import io.lifeline.connector.inbound.cloud.GcpMetadataTranslator;
import io.lifeline.connector.inbound.cloud.ImdsDocument;
import io.lifeline.connector.inbound.torchelastic.JobBinding;
import io.lifeline.connector.inbound.torchelastic.TorchelasticTranslator;
import io.lifeline.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Translates one record of the notices topic. The format is named by the {@code lifeline.format} header or,
 * without it, recognised from the JSON: an object with {@code detail-type} is an EventBridge event (so is an Auto
 * Scaling lifecycle notification sent straight to SQS, with {@code LifecycleTransition} at the top), one with
 * {@code Events} an Azure Scheduled Events document, one with {@code name}/{@code source}/{@code metadata} or
 * {@code run_id}/{@code node_state} a torchelastic line.
 *
 * <table>
 *   <caption>Formats and their headers</caption>
 *   <tr><th>{@code lifeline.format}</th><th>value</th><th>other headers</th></tr>
 *   <tr><td>{@code aws.eventbridge}</td><td>an EventBridge event</td><td>-</td></tr>
 *   <tr><td>{@code aws.imds}</td><td>an IMDS document</td><td>{@code lifeline.instance-id}, {@code lifeline.imds-document}</td></tr>
 *   <tr><td>{@code azure.scheduled-events}</td><td>a Scheduled Events document</td><td>-</td></tr>
 *   <tr><td>{@code gcp.preempted}, {@code gcp.maintenance-event}</td><td>the metadata value</td>
 *       <td>{@code lifeline.instance-id}</td></tr>
 *   <tr><td>{@code torchelastic}</td><td>one or more event lines</td>
 *       <td>optional {@code lifeline.job}, {@code lifeline.procs-per-node}</td></tr>
 * </table>
 */
@ApplicationScoped
public class NoticeRecords {

    public static final String FORMAT = "lifeline.format";
    public static final String INSTANCE_ID = "lifeline.instance-id";
    public static final String IMDS_DOCUMENT = "lifeline.imds-document";
    public static final String JOB = "lifeline.job";
    public static final String PROCS_PER_NODE = "lifeline.procs-per-node";
    static final String UNKNOWN_FORMAT = "unknown_format";

    private static final ObjectMapper MAPPER = Json.untrusted();

    private final AwsNoticeTranslator aws;
    private final AzureScheduledEventsTranslator azure;
    private final GcpMetadataTranslator gcp;
    private final TorchelasticTranslator torchelastic;
    private final ConnectorJobResolver jobs;
    private final ConnectorMetrics metrics;

    NoticeRecords(
            AwsNoticeTranslator aws,
            AzureScheduledEventsTranslator azure,
            GcpMetadataTranslator gcp,
            TorchelasticTranslator torchelastic,
            ConnectorJobResolver jobs,
            ConnectorMetrics metrics) {
        this.aws = aws;
        this.azure = azure;
        this.gcp = gcp;
        this.torchelastic = torchelastic;
        this.jobs = jobs;
        this.metrics = metrics;
    }

    /**
     * What one record translated into, added to {@code batch} at {@code index}.
     *
     * @param value       the record value
     * @param headers     the record headers (last value of each), as text
     * @param receivedAt  when the record was read
     * @return the connector that translated it (for the metrics), or {@code kafka} when none could
     */
    public String translate(
            byte[] value, Map<String, String> headers, Instant receivedAt, ConnectorBatch batch, int index) {
        String format = headers.get(FORMAT);
        if (format == null) {
            format = sniff(value);
        }
        String instance = headers.get(INSTANCE_ID);
        switch (format == null ? "" : format.trim().toLowerCase(Locale.ROOT)) {
            case "aws.eventbridge":
                batch.add(index, observed(aws.stats(), aws.fromEventBridge(value)));
                return "aws";
            case "aws.imds":
                batch.add(
                        index,
                        observed(
                                aws.stats(),
                                aws.fromImds(
                                        instance, ImdsDocument.named(headers.get(IMDS_DOCUMENT)), value, receivedAt)));
                return "aws";
            case "azure.scheduled-events":
                batch.add(index, observed(azure.stats(), azure.translate(value, receivedAt)));
                return "azure";
            case "gcp.preempted":
                batch.add(
                        index,
                        observed(
                                gcp.stats(),
                                gcp.preempted(instance, GcpMetadataTranslator.metadataValue(value), receivedAt)));
                return "gcp";
            case "gcp.maintenance-event":
                batch.add(
                        index,
                        observed(
                                gcp.stats(),
                                gcp.maintenanceEvent(
                                        instance, GcpMetadataTranslator.metadataValue(value), receivedAt)));
                return "gcp";
            case "torchelastic":
                torchelasticLines(value, headers, receivedAt, batch, index);
                return "torchelastic";
            default:
                metrics.rejectedAtIngest("kafka", UNKNOWN_FORMAT);
                batch.error(
                        index,
                        UNKNOWN_FORMAT,
                        format == null
                                ? "not a recognised notice format and no " + FORMAT + " header"
                                : FORMAT + " '" + format
                                        + "' is not one of aws.eventbridge, aws.imds, azure.scheduled-events, "
                                        + "gcp.preempted, gcp.maintenance-event, torchelastic");
                return "kafka";
        }
    }

    private void torchelasticLines(
            byte[] value, Map<String, String> headers, Instant receivedAt, ConnectorBatch batch, int index) {
        Integer ppn = null;
        String p = headers.get(PROCS_PER_NODE);
        if (p != null) {
            try {
                ppn = Integer.valueOf(p.trim());
            } catch (NumberFormatException e) {
                batch.error(index, "invalid_header", PROCS_PER_NODE + ": not a number: " + p);
                return;
            }
        }
        String job = headers.get(JOB);
        if (job != null && !JobBinding.isValidJob(job.trim())) {
            batch.error(index, "invalid_header", JOB + ": must be namespace/name, got '" + job + "'");
            return;
        }
        if (ppn != null && (ppn < 1 || ppn > 1024)) {
            batch.error(index, "invalid_header", PROCS_PER_NODE + ": must be between 1 and 1024, got " + ppn);
            return;
        }
        Integer procs = ppn;
        jobs.with(jobs.requestMapping(job, procs), () -> {
            for (String line : new String(value, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    batch.add(index, observed(torchelastic.stats(), torchelastic.translate(line.strip(), receivedAt)));
                }
            }
            return null;
        });
    }

    private Translation observed(TranslatorStats stats, Translation t) {
        metrics.observe(stats, t);
        return t;
    }

    /** The format of an unlabelled record, from its JSON shape (of its first line, for lines); null when none fits. */
    static String sniff(byte[] value) {
        JsonNode root = readOrNull(value);
        if (root == null) {
            int nl = indexOf(value, (byte) '\n');
            root = nl > 0 ? readOrNull(Arrays.copyOf(value, nl)) : null;
        }
        if (root == null || !root.isObject()) {
            return null;
        }
        if (root.has("detail-type")
                || (root.has("LifecycleTransition") || root.has("Event")) && root.has("AutoScalingGroupName")) {
            return "aws.eventbridge";
        }
        if (root.has("Events")) {
            return "azure.scheduled-events";
        }
        if (root.has("name") && root.has("source") && root.has("metadata")
                || root.has("run_id") && root.has("node_state")) {
            return "torchelastic";
        }
        return null;
    }

    private static JsonNode readOrNull(byte[] value) {
        try {
            return MAPPER.readTree(value);
        } catch (IOException e) {
            return null;
        }
    }

    private static int indexOf(byte[] b, byte x) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
