package io.lifeline.connector.kernel;

import static io.lifeline.connector.http.LifelineApi.stored;
import static io.lifeline.connector.http.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.Fixtures;
import io.restassured.path.json.JsonPath;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        api().contentType("text/plain; version=0.0.4").body(Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom"))
                .post("/api/v1/connectors/dcgm/" + node).then().statusCode(200);

        // As `journalctl -k -o cat` writes them: the same XID twice is two occurrences.
        String body = """
                NVRM: Xid (PCI:0000:00:02): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
                perf: interrupt took too long (4931 > 4921), lowering kernel.perf_event_max_sample_rate to 40500

                NVRM: Xid (PCI:0000:00:02): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
                NVRM: Xid (PCI:0000:9b:00): 119, pid=1, name=nvidia-smi, Timeout after 6s of waiting for RPC response
                """;
        JsonPath receipt = api().contentType("text/plain").body(body).post("/api/v1/connectors/kernel-log/" + node).then()
                .statusCode(200).extract().jsonPath();
        assertThat(receipt.getInt("accepted")).isEqualTo(2);
        assertThat(receipt.getList("errors.index", Integer.class)).containsExactly(1, 4);
        assertThat(receipt.getList("errors.reason", String.class)).containsExactly("not_an_xid_line", "unknown_pci_bus_id");

        await().atMost(Duration.ofSeconds(10)).until(() -> kernelXids(node).size() == 2);
        Map<String, Object> data = data(kernelXids(node).get(0));
        assertThat(data).containsEntry("uuid", "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c").containsEntry("index", 0)
                .containsEntry("xid", 79).containsEntry("message", "GPU has fallen off the bus.");

        api().contentType("text/plain").body(Fixtures.bytes("xid/dmesg_ctime_xid_lines_gpud_readme.log"))
                .post("/api/v1/connectors/kernel-log/" + unique("klog-none")).then().statusCode(400);
    }

    private static List<Map<String, Object>> kernelXids(String node) {
        return stored(node, "gpu.xid").stream().filter(e -> ("kernel-log/" + node).equals(e.get("source"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }
}
