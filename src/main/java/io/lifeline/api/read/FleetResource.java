package io.lifeline.api.read;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.fleet.PoolGpuHealth;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * Read API of the fleet: nodes, GPUs and their health, active interruption notices. A caller limited to namespaces
 * sees only the nodes that host ranks of its jobs now (and their GPUs, notices and health); any other node is
 * answered 404, as if unknown.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class FleetResource {

    private final ModelRuntime model;
    private final CurrentCaller callers;

    FleetResource(ModelRuntime model, CurrentCaller callers) {
        this.model = model;
        this.callers = callers;
    }

    @GET
    @Path("/nodes")
    public CompletionStage<Page<NodeSummary>> nodes(
            @QueryParam("pool") String pool,
            @QueryParam("capacityType") String capacityType,
            @QueryParam("state") String state,
            @QueryParam("health") String health,
            @QueryParam("limit") Integer limit,
            @QueryParam("offset") Integer offset,
            @QueryParam("cursor") String cursor) {
        CapacityType ct =
                capacityType == null || capacityType.isBlank() ? null : CapacityType.fromWireName(capacityType);
        if (capacityType != null && !capacityType.isBlank() && ct == null) {
            throw new io.lifeline.codec.InvalidEventException(
                    "capacityType: must be one of spot, on-demand, reserved, got '" + capacityType + "'");
        }
        NodeQuery q = new NodeQuery(
                pool == null || pool.isBlank() ? null : pool,
                ct,
                QueryParams.enumValue("state", state, NodeLifecycle.class),
                QueryParams.enumValue("health", health, GpuHealth.class));
        int n = QueryParams.limit(limit, 500, 5000);
        int from = QueryParams.position(offset, cursor);
        Scope scope = Scope.of(callers.get());
        return model.read(m -> {
            List<NodeSummary> all = m.fleet().nodes(q);
            if (!scope.isEverything()) {
                Predicate<String> visible = visibleNodes(scope, m);
                all = all.stream().filter(s -> visible.test(s.name())).toList();
            }
            return Page.of(all, from, n);
        });
    }

    @GET
    @Path("/nodes/{name}")
    public CompletionStage<NodeDetail> node(@PathParam("name") String name) {
        Scope scope = Scope.of(callers.get());
        return model.read(m -> m.fleet()
                .node(name)
                .filter(d -> visibleNodes(scope, m).test(name))
                .map(scope::visible)
                .orElseThrow(() -> NotFound.node(name)));
    }

    @GET
    @Path("/gpus")
    public CompletionStage<Page<GpuView>> gpus(
            @QueryParam("node") String node,
            @QueryParam("health") String health,
            @QueryParam("limit") Integer limit,
            @QueryParam("offset") Integer offset,
            @QueryParam("cursor") String cursor) {
        GpuHealth h = QueryParams.enumValue("health", health, GpuHealth.class);
        int n = QueryParams.limit(limit, 1000, 20_000);
        int from = QueryParams.position(offset, cursor);
        Scope scope = Scope.of(callers.get());
        // Only the page's views are made on the model's thread: at 64k GPUs a view and a sort of every GPU per
        // request held it for tens of milliseconds (BENCHMARKS.md, the cost curve).
        return model.read(m -> {
            Predicate<String> visible = visibleNodes(scope, m);
            Fleet.GpuPage page = m.fleet()
                    .gpuPage(
                            name -> (node == null || node.isBlank() || node.equals(name)) && visible.test(name),
                            h,
                            from,
                            n);
            return Page.at(page.items().stream().map(scope::visible).toList(), page.total(), from, n);
        });
    }

    @GET
    @Path("/fleet/health")
    public CompletionStage<List<PoolGpuHealth>> health() {
        Scope scope = Scope.of(callers.get());
        return model.read(m ->
                scope.isEverything() ? m.fleet().gpuHealthByPool() : m.fleet().gpuHealthByPool(visibleNodes(scope, m)));
    }

    @GET
    @Path("/fleet/notices")
    public CompletionStage<List<NodeNotice>> notices() {
        Scope scope = Scope.of(callers.get());
        return model.read(m -> {
            List<NodeNotice> all = m.fleet().nodesWithActiveNotice();
            if (scope.isEverything()) {
                return all;
            }
            Predicate<String> visible = visibleNodes(scope, m);
            return all.stream().filter(x -> visible.test(x.node())).toList();
        });
    }

    /** The nodes {@code scope} may see: every node, or those hosting ranks of its jobs. Call on the model thread. */
    static Predicate<String> visibleNodes(Scope scope, LiveModel m) {
        return Scope.nodeFilter(
                scope.isEverything() ? null : scope.nodesUsed(m.jobs().jobsByNode()));
    }
}
