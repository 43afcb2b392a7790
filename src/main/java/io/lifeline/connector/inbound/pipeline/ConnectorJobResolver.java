package io.lifeline.connector.inbound.pipeline;

import io.lifeline.config.TorchelasticConnectorConfig;
import io.lifeline.connector.inbound.torchelastic.JobBinding;
import io.lifeline.connector.inbound.torchelastic.JobResolver;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Which job a torchelastic run belongs to, asked in this order:
 * <ol>
 *   <li>the mapping of the request or record being translated ({@code ?job=} on the endpoint, the
 *       {@code lifeline.job} header on Kafka), see {@link #with};</li>
 *   <li>the configured table {@code lifeline.connectors.torchelastic.jobs};</li>
 *   <li>the PyTorchJobs the Kubernetes connector watches: a run id equal to a job's name is that job (the launcher
 *       passes {@code --rdzv-id=$(JOB_NAME)}), with the job's processes per node;</li>
 *   <li>{@code lifeline.connectors.torchelastic.default-namespace}: the run id is a job name in that namespace.</li>
 * </ol>
 * A mapping that knows the job but not its processes per node borrows them from the request or the watched job.
 * Thread-safe; memory: one entry per watched PyTorchJob.
 */
@ApplicationScoped
public class ConnectorJobResolver implements JobResolver {

    private static final Logger LOG = Logger.getLogger(ConnectorJobResolver.class);

    private final Map<String, JobBinding> configured;
    private final Map<String, JobBinding> watched = new ConcurrentHashMap<>();
    private final JobResolver byNamespace;

    @SuppressWarnings("ThreadLocalUsage") // one resolver per application: the scope is per thread and per resolver
    private final ThreadLocal<JobResolver> scoped = new ThreadLocal<>();

    ConnectorJobResolver(TorchelasticConnectorConfig config) {
        Map<String, JobBinding> table = new HashMap<>();
        config.jobs()
                .forEach((runId, j) -> table.put(
                        runId, new JobBinding(j.job(), j.procsPerNode().orElse(null))));
        this.configured = Map.copyOf(table);
        Optional<String> ns = config.defaultNamespace();
        this.byNamespace = ns.map(n -> JobResolver.runIdInNamespace(n, null)).orElse((runId, host) -> null);
    }

    @Override
    public JobBinding resolve(String runId, String hostname) {
        JobResolver request = scoped.get();
        JobBinding b = request == null ? null : request.resolve(runId, hostname);
        if (b == null && runId != null) {
            b = configured.get(runId);
        }
        if (b == null && runId != null) {
            b = watched.get(runId);
        }
        if (b == null) {
            b = byNamespace.resolve(runId, hostname);
        }
        if (b != null && b.procsPerNode() == null && runId != null) {
            JobBinding w = watched.get(runId);
            if (w != null && w.job().equals(b.job()) && w.procsPerNode() != null) {
                b = new JobBinding(b.job(), w.procsPerNode());
            }
        }
        return b;
    }

    /** Runs {@code work} with {@code request} asked first, on this thread only (one request or record). */
    public <T> T with(JobResolver request, Supplier<T> work) {
        JobResolver outer = scoped.get();
        scoped.set(request);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                scoped.remove();
            } else {
                scoped.set(outer);
            }
        }
    }

    /**
     * A request's own mapping: every run belongs to {@code job} when given; otherwise only
     * {@code procsPerNode} is added to whatever the other mappings find.
     */
    public JobResolver requestMapping(String job, Integer procsPerNode) {
        if (job != null && !job.isBlank()) {
            JobBinding b = new JobBinding(job.trim(), procsPerNode);
            return (runId, hostname) -> b;
        }
        if (procsPerNode == null) {
            return null;
        }
        return (runId, hostname) -> {
            JobBinding base = resolveWithout(runId, hostname);
            return base == null || base.procsPerNode() != null ? base : new JobBinding(base.job(), procsPerNode);
        };
    }

    private JobBinding resolveWithout(String runId, String hostname) {
        JobResolver saved = scoped.get();
        scoped.remove();
        try {
            return resolve(runId, hostname);
        } finally {
            scoped.set(saved);
        }
    }

    /** A watched job ({@code namespace/name}); its name is taken as a run id. */
    public void watchJob(String namespace, String name, Integer procsPerNode) {
        String job = namespace + "/" + name;
        if (!JobBinding.isValidJob(job)) {
            return;
        }
        JobBinding previous = watched.put(name, new JobBinding(job, procsPerNode));
        if (previous != null && !previous.job().equals(job)) {
            LOG.debugf(
                    "Run id %s now maps to %s (was %s): two namespaces hold a job of that name",
                    name, job, previous.job());
        }
    }

    /** Forgets a watched job. */
    public void unwatchJob(String namespace, String name) {
        watched.computeIfPresent(name, (k, b) -> b.job().equals(namespace + "/" + name) ? null : b);
    }
}
