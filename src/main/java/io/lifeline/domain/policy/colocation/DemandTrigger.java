package io.lifeline.domain.policy.colocation;

import java.time.Duration;
import java.util.Objects;

/**
 * Demand-driven lending: while an inference signal is above its threshold, the pool's training jobs yield; once it
 * has stayed at or below the threshold for the hold time, they grow back (hysteresis: a signal that dips for a
 * moment does not make the jobs grow and shrink again).
 *
 * @param name      the trigger's name, as configured
 * @param pool      the pool whose training jobs yield
 * @param source    what is measured
 * @param threshold above this value the pool lends
 * @param hold      how long the value must stay at or below the threshold before the jobs grow back
 */
public record DemandTrigger(String name, String pool, Source source, double threshold, Duration hold) {

    public DemandTrigger {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(hold, "hold");
    }

    /** What a trigger measures; an edge reads it. */
    public sealed interface Source {

        /** For people: what is read. */
        String describe();
    }

    /** Pods of a named inference workload (a Deployment) that are Pending: demand the cluster cannot place. */
    public record PendingPods(String namespace, String workload) implements Source {
        @Override
        public String describe() {
            return "pending pods of " + namespace + "/" + workload;
        }
    }

    /** The value of a PromQL query (a scalar, or the largest sample of a vector). */
    public record PrometheusQuery(String query) implements Source {
        @Override
        public String describe() {
            return "prometheus: " + query;
        }
    }
}
