package io.lifeline.api.read;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** A node's GPUs through the read API: counted from its registration before telemetry, gone once it terminated. */
@QuarkusTest
class NodesResourceTest {

    private final String id = CloudEvents.uniqueId().substring(0, 8);

    @Test
    void aRegisteredNodeWithoutTelemetryHasItsRegisteredGpuCount() {
        String node = "quiet-" + id;
        new TestFleet().node(node, "quiet-pool-" + id);

        TestTokens.api()
                .get("/api/v1/nodes/" + node)
                .then()
                .statusCode(200)
                .body("gpuCount", equalTo(8))
                .body("gpus", hasSize(0));
        TestTokens.api()
                .queryParam("pool", "quiet-pool-" + id)
                .get("/api/v1/nodes")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].gpuCount", equalTo(8));
    }

    @Test
    void aTerminatedNodesGpusHaveNoVerdictAndSayTheyAreGone() {
        String node = "gone-" + id;
        TestFleet fleet = new TestFleet().node(node, "gone-pool-" + id);
        for (int i = 0; i < 2; i++) {
            fleet.send(
                    node,
                    EventType.GPU_SAMPLE,
                    new GpuData.Sample(
                            "GPU-" + node + "-" + i,
                            i,
                            "NVIDIA H100",
                            97.0,
                            1.0,
                            80_000.0,
                            60.0,
                            500.0,
                            0L,
                            0L,
                            0L,
                            0L,
                            0,
                            "worker-0",
                            "ml"));
        }
        fleet.send(node, EventType.NODE_TERMINATED, new NodeData.Terminated("spot instance reclaimed"));

        TestTokens.api()
                .get("/api/v1/nodes/" + node)
                .then()
                .statusCode(200)
                .body("state", equalTo("terminated"))
                .body("gpuCount", equalTo(8))
                .body("gpus", hasSize(2))
                .body("gpus.health", everyItem(nullValue()))
                .body("gpus.utilizationPercent", everyItem(nullValue()))
                .body("gpus.reason", everyItem(equalTo("gone: the node is terminated")));
        TestTokens.api()
                .queryParam("node", node)
                .queryParam("health", "healthy")
                .get("/api/v1/gpus")
                .then()
                .statusCode(200)
                .body("items", hasSize(0));
        // The state a query names in either spelling: the wire name answers carry, or the constant earlier ones did.
        for (String state : new String[] {"terminated", "TERMINATED"}) {
            TestTokens.api()
                    .queryParam("pool", "gone-pool-" + id)
                    .queryParam("state", state)
                    .get("/api/v1/nodes")
                    .then()
                    .statusCode(200)
                    .body("items", hasSize(1))
                    .body("items[0].state", equalTo("terminated"));
        }
    }
}
