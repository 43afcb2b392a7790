package io.lifeline.api.read;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.fleet.PoolGpuHealth;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.runtime.ModelRuntime;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Read API of the fleet: nodes, GPUs and their health, active interruption notices. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class FleetResource {

    private final ModelRuntime model;

    FleetResource(ModelRuntime model) {
        this.model = model;
    }

    @GET
    @Path("/nodes")
    public CompletionStage<Page<NodeSummary>> nodes(@QueryParam("pool") String pool,
                                                     @QueryParam("capacityType") String capacityType,
                                                     @QueryParam("state") String state, @QueryParam("health") String health,
                                                     @QueryParam("limit") Integer limit, @QueryParam("offset") Integer offset) {
        CapacityType ct = capacityType == null || capacityType.isBlank() ? null : CapacityType.fromWireName(capacityType);
        if (capacityType != null && !capacityType.isBlank() && ct == null) {
            throw new io.lifeline.codec.InvalidEventException(
                    "capacityType: must be one of spot, on-demand, reserved, got '" + capacityType + "'");
        }
        NodeQuery q = new NodeQuery(pool == null || pool.isBlank() ? null : pool, ct,
                QueryParams.enumValue("state", state, NodeLifecycle.class),
                QueryParams.enumValue("health", health, GpuHealth.class));
        int n = QueryParams.limit(limit, 500, 5000);
        int from = QueryParams.offset(offset);
        return model.read(m -> Page.of(m.fleet().nodes(q), from, n));
    }

    @GET
    @Path("/nodes/{name}")
    public CompletionStage<NodeDetail> node(@PathParam("name") String name) {
        return model.read(m -> m.fleet().node(name).orElseThrow(() -> NotFound.node(name)));
    }

    @GET
    @Path("/gpus")
    public CompletionStage<Page<GpuView>> gpus(@QueryParam("node") String node, @QueryParam("health") String health,
                                               @QueryParam("limit") Integer limit, @QueryParam("offset") Integer offset) {
        GpuHealth h = QueryParams.enumValue("health", health, GpuHealth.class);
        int n = QueryParams.limit(limit, 1000, 20_000);
        int from = QueryParams.offset(offset);
        return model.read(m -> {
            List<GpuView> all = m.fleet().gpus().stream()
                    .filter(g -> node == null || node.isBlank() || node.equals(g.node()))
                    .filter(g -> h == null || h == g.health())
                    .toList();
            return Page.of(all, from, n);
        });
    }

    @GET
    @Path("/fleet/health")
    public CompletionStage<List<PoolGpuHealth>> health() {
        return model.read(m -> m.fleet().gpuHealthByPool());
    }

    @GET
    @Path("/fleet/notices")
    public CompletionStage<List<NodeNotice>> notices() {
        return model.read(m -> m.fleet().nodesWithActiveNotice());
    }
}
