package io.lifeline.api.read;

import io.lifeline.domain.storage.StorageTargetView;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Checkpoint storage targets: per target the bytes kept, the write bandwidth seen, the free space and the time until
 * full (docs/checkpoints.md). A caller limited to namespaces sees the targets its jobs write to, with only its jobs'
 * figures; a target none of its jobs writes to is answered 404, as if it did not exist.
 */
@Path("/api/v1/storage")
@Produces(MediaType.APPLICATION_JSON)
public class StorageResource {

    private final ModelRuntime model;
    private final CurrentCaller callers;
    private final Clock clock;

    StorageResource(ModelRuntime model, CurrentCaller callers, Clock clock) {
        this.model = model;
        this.callers = callers;
        this.clock = clock;
    }

    @GET
    public CompletionStage<List<StorageTargetView>> targets() {
        Scope scope = Scope.of(callers.get());
        return model.read(m -> m.storage().views(clock.instant(), scope.namespaceFilter()));
    }

    /**
     * One target by name ({@code /fsx}, {@code s3://bucket}), URL-encoded or not: slashes doubled or dropped by the
     * way are forgiven.
     */
    @GET
    @Path("/{target: .+}")
    public CompletionStage<StorageTargetView> target(@PathParam("target") String target) {
        Scope scope = Scope.of(callers.get());
        return model.read(m -> m.storage()
                .view(m.storage().find(target), clock.instant(), scope.namespaceFilter())
                .orElseThrow(() -> new NotFoundException("no storage target named '" + target + "'")));
    }
}
