package io.lifeline.api.connector;

import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.Fixtures;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/v1/connectors/kernel-log/{node}}: a node's dcgm-exporter scrape (the RTX 4000 Ada fixture, GPU at
 * PCI {@code 00000000:00:02.0}) is pushed first, then kernel-log lines naming that address; the XIDs are read back
 * from the event log.
 */
@QuarkusTest
class KernelLogEndpointTest {

    @Test
    void eachXidLineOfTheNodeIsStoredOnItsGpuAndTheNoiseIsRefusedLineByLine() {
        String node = unique("klog");
        api().contentType("text/plain; version=0.0.4")
                .body(Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom"))
                .post("/api/v1/connectors/dcgm/" + node)
                .then()
                .statusCode(200);

        // As `journalctl -k -o cat` writes them: the same XID twice is two occurrences.
        String body = """
                NVRM: Xid (PCI:0000:00:02): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
                perf: interrupt took too long (4931 > 4921), lowering kernel.perf_event_max_sample_rate to 40500

                NVRM: Xid (PCI:0000:00:02): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
                NVRM: Xid (PCI:0000:9b:00): 119, pid=1, name=nvidia-smi, Timeout after 6s of waiting for RPC response
                """;
        JsonPath receipt = api().contentType("text/plain")
                .body(body)
                .post("/api/v1/connectors/kernel-log/" + node)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(receipt.getInt("accepted")).isEqualTo(2);
        assertThat(receipt.getList("errors.index", Integer.class)).containsExactly(1, 4);
        assertThat(receipt.getList("errors.reason", String.class))
                .containsExactly("not_an_xid_line", "unknown_pci_bus_id");

        await().atMost(Duration.ofSeconds(60)).until(() -> kernelXids(node).size() == 2);
        Map<String, Object> data = data(kernelXids(node).get(0));
        assertThat(data)
                .containsEntry("uuid", "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c")
                .containsEntry("index", 0)
                .containsEntry("xid", 79)
                .containsEntry("message", "GPU has fallen off the bus.");

        api().contentType("text/plain")
                .body(Fixtures.bytes("xid/dmesg_ctime_xid_lines_gpud_readme.log"))
                .post("/api/v1/connectors/kernel-log/" + unique("klog-none"))
                .then()
                .statusCode(400);
    }

    /**
     * The node agent of docs/connectors.md, run as written (bash, grep, curl) on journalctl-style lines of the last
     * minute: the driver's lines reach the node's GPU with their own times, the other kernel lines stay home, and the
     * same lines sent again (a restart, a retry) are stored once.
     */
    @Test
    void theDocumentedNodeAgentPostsTheXidLinesAndAResendStoresNothingTwice() throws Exception {
        String node = unique("klog-agent");
        api().contentType("text/plain; version=0.0.4")
                .body(Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom"))
                .post("/api/v1/connectors/dcgm/" + node)
                .then()
                .statusCode(200);
        Instant t1 = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MICROS);
        Instant t2 = t1.plusMillis(1500);
        DateTimeFormatter colon =
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);
        DateTimeFormatter plain =
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxx").withZone(ZoneOffset.UTC);
        Path dir = Files.createTempDirectory("kernel-log-agent");
        Path journal = dir.resolve("journal.txt");
        // journalctl -k -o short-iso-precise spells the offset +00:00 (older systemd: +0000).
        Files.writeString(
                journal,
                colon.format(t1) + " " + node + " kernel: NVRM: Xid (PCI:0000:00:02): 79, pid='<unknown>', "
                        + "name=<unknown>, GPU has fallen off the bus.\n"
                        + colon.format(t1) + " " + node + " kernel: perf: interrupt took too long (4931 > 4921)\n"
                        + plain.format(t2) + " " + node
                        + " kernel: NVRM: GPU 0000:00:02.0: GPU has fallen off the bus.\n");
        Path token = dir.resolve("token");
        Files.writeString(token, TestTokens.ingest());
        Path script = dir.resolve("lifeline-kernel-log.sh");
        Files.writeString(script, documentedAgent());

        for (int run = 0; run < 2; run++) {
            ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true);
            pb.environment().put("LIFELINE", "http://localhost:" + RestAssured.port);
            pb.environment().put("NODE_NAME", node);
            pb.environment().put("LIFELINE_TOKEN_FILE", token.toString());
            pb.environment().put("KERNEL_LOG", "cat " + journal);
            Process p = pb.start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as("the agent ends with its input")
                    .isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).as("one batch, accepted").isEqualTo("kernel-log: HTTP 200\n");
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> kernelXids(node).size() == 2);
        Thread.sleep(500); // the resend, had it been stored, would be there by now too
        List<Map<String, Object>> xids = kernelXids(node);
        assertThat(xids).hasSize(2);
        assertThat(xids)
                .extracting(e -> Instant.parse(String.valueOf(e.get("time"))))
                .containsExactlyInAnyOrder(t1, t2);
        assertThat(xids)
                .allSatisfy(e -> assertThat(data(e))
                        .containsEntry("uuid", "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c")
                        .containsEntry("xid", 79));
    }

    /** The agent script of docs/connectors.md, "Kernel-log XIDs". */
    private static String documentedAgent() throws IOException {
        String doc = Files.readString(Path.of("docs/connectors.md"));
        int start = doc.indexOf("#!/bin/bash\n# Forwards the NVIDIA driver's XID lines");
        assertThat(start).as("the agent script in docs/connectors.md").isPositive();
        return doc.substring(start, doc.indexOf("```", start));
    }

    private static List<Map<String, Object>> kernelXids(String node) {
        return stored(node, "gpu.xid").stream()
                .filter(e -> ("kernel-log/" + node).equals(e.get("source")))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }
}
