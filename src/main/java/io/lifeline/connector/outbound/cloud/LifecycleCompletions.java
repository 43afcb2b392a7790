package io.lifeline.connector.outbound.cloud;

import io.lifeline.action.ActionExecutor;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.CloudConnectorConfig;
import io.lifeline.connector.LifecycleAction;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Completes the Auto Scaling lifecycle action of a node once its drain has ended, as aws-node-termination-handler
 * does in queue mode: the {@code EC2 Instance-terminate Lifecycle Action} that announced the node's termination is
 * remembered (by node, bounded), and when a {@code drain} of that node finishes (succeeded or failed: the instance
 * goes either way, and waiting for the hook's timeout only delays the group) {@code CompleteLifecycleAction} is
 * called with {@code CONTINUE}, tried again after 1 s, 2 s, ... on no answer, never on a refusal. A cancelled drain
 * leaves the action to the hook's heartbeat timeout. On when {@code lifeline.connectors.cloud.aws.lifecycle.complete}.
 */
@ApplicationScoped
public class LifecycleCompletions {

    private static final Logger LOG = Logger.getLogger(LifecycleCompletions.class);
    /** Between calls while AWS is unreachable: 1 s doubling, at most 1024 s (the attempts run out long before). */
    private static final Backoff RETRY = Backoff.exponentialMillis(1_000, 1_024_000);

    private final CloudConnectorConfig.Lifecycle config;
    private final ActionExecutor executor;
    private final Map<String, LifecycleAction> pending;
    private final MeterRegistry registry;
    private volatile LifecycleActions api;
    private ScheduledThreadPoolExecutor retries;

    LifecycleCompletions(CloudConnectorConfig cloud, ActionExecutor executor, MeterRegistry registry, Clock clock) {
        this.config = cloud.aws().lifecycle();
        this.executor = executor;
        this.registry = registry;
        int max = Math.max(1, config.maxPending());
        this.pending = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, LifecycleAction> eldest) {
                return size() > max;
            }
        };
        if (config.complete()) {
            this.api =
                    new AwsAutoScalingApi(config.endpoint().orElse(null), this::credentials, config.timeout(), clock);
        }
    }

    void onStart(@Observes StartupEvent e) {
        if (!config.complete()) {
            return;
        }
        retries = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-aws-lifecycle"));
        executor.onFinished(this::finished);
    }

    /** Whether completing is on. */
    public boolean enabled() {
        return config.complete();
    }

    /** Uses {@code actions} instead of the AWS API (tests). */
    void use(LifecycleActions actions) {
        this.api = actions;
    }

    /** Remembers the lifecycle action held open for {@code node}. */
    public void expect(String node, LifecycleAction action) {
        if (!config.complete()) {
            return;
        }
        synchronized (pending) {
            pending.put(node, action);
        }
    }

    /** Lifecycle actions waiting for their node's drain. */
    public int pending() {
        synchronized (pending) {
            return pending.size();
        }
    }

    private void finished(ActionView a) {
        if (a.kind() != ActionKind.DRAIN || (a.state() != ActionState.SUCCEEDED && a.state() != ActionState.FAILED)) {
            return;
        }
        LifecycleAction action;
        synchronized (pending) {
            action = pending.remove(a.target());
        }
        if (action != null) {
            attempt(a.target(), action, 1);
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // attempt() counts and logs every outcome
    private void attempt(String node, LifecycleAction action, int n) {
        LifecycleActions.Outcome o = api.complete(action);
        if (o instanceof LifecycleActions.Outcome.Completed) {
            count("completed");
            LOG.infof(
                    "Lifecycle action of %s (node %s, group %s) completed after its drain",
                    action.instanceId(), node, action.autoScalingGroupName());
        } else if (o instanceof LifecycleActions.Outcome.Refused r) {
            count("refused");
            LOG.warnf(
                    "CompleteLifecycleAction for %s (node %s) refused: HTTP %d %s: %s",
                    action.instanceId(), node, r.status(), r.code(), r.message());
        } else if (n < Math.max(1, config.attempts()) && retries != null) {
            // Tried again in the drain's log context (its node and action), where the first attempt ran.
            retries.schedule(
                    LogContext.current().wrap(() -> attempt(node, action, n + 1)),
                    RETRY.delayMillis(n),
                    TimeUnit.MILLISECONDS);
        } else {
            count("unreachable");
            LOG.warnf(
                    "CompleteLifecycleAction for %s (node %s) not answered after %d attempts: %s",
                    action.instanceId(), node, n, ((LifecycleActions.Outcome.Unreachable) o).reason());
        }
    }

    private void count(String outcome) {
        Counter.builder("lifeline_connector_aws_lifecycle_completions")
                .tag("outcome", outcome)
                .description("Auto Scaling lifecycle actions completed after a drain, by outcome")
                .register(registry)
                .increment();
    }

    private SigV4.Credentials credentials() {
        String id = config.accessKeyId().orElse(System.getenv("AWS_ACCESS_KEY_ID"));
        String secret = config.secretAccessKey().orElse(System.getenv("AWS_SECRET_ACCESS_KEY"));
        String token = config.sessionToken().orElse(System.getenv("AWS_SESSION_TOKEN"));
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            throw new IllegalStateException(
                    "no AWS credentials: set lifeline.connectors.cloud.aws.lifecycle.access-key-id "
                            + "and secret-access-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
        }
        return new SigV4.Credentials(id.trim(), secret.trim(), token == null || token.isBlank() ? null : token.trim());
    }

    @PreDestroy
    void stop() {
        if (retries != null) {
            retries.shutdownNow();
        }
    }
}
