package io.lifeline.security;

import io.lifeline.domain.fleet.NodeInfo;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.TreeSet;

/**
 * The current request's {@link Scope}, and the nodes it may see, for the reads that are not made on the model thread
 * (the event log, actions, audit, alerts): they ask here once per request and pass the answer to their query, which
 * filters before it pages.
 */
@ApplicationScoped
public class Visibility {

    private final CurrentCaller callers;
    private final ModelRuntime model;

    Visibility(CurrentCaller callers, ModelRuntime model) {
        this.callers = callers;
        this.model = model;
    }

    /** The scope of the caller of the current request. */
    public Scope scope() {
        return Scope.of(callers.get());
    }

    /**
     * The nodes {@code scope} may see (hosting ranks of its jobs now), or null for every node. Waits for the model
     * thread when the scope is limited: call it from a worker thread.
     */
    public Set<String> nodesUsed(Scope scope) {
        if (scope.isEverything()) {
            return null;
        }
        return model.read(m -> scope.nodesUsed(m.jobs().jobsByNode())).join();
    }

    /**
     * The pools of the nodes {@code scope} may see (those hosting ranks of its jobs now), or null for every pool. Waits
     * for the model thread when the scope is limited: call it from a worker thread.
     */
    public Set<String> poolsUsed(Scope scope) {
        if (scope.isEverything()) {
            return null;
        }
        return model.read(m -> {
                    Set<String> pools = new TreeSet<>();
                    for (String node : scope.nodesUsed(m.jobs().jobsByNode())) {
                        NodeInfo facts = m.fleet().find(node);
                        if (facts != null && facts.pool() != null) {
                            pools.add(facts.pool());
                        }
                    }
                    return pools;
                })
                .join();
    }
}
