package io.lifeline.connector.inbound.kube.admission;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.lifeline.action.ActionService;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.store.ActionStore;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The eviction webhook wired to the application: the {@link EvictionGate} asks the model for a job's freshness
 * (bounded by {@code lifeline.eviction-gate.read-timeout}), the cluster for a pod's job, starts checkpoint-now
 * actions and writes the audit. {@link EvictionWebhookListener} serves it; reviews it refuses before deciding are
 * counted here ({@code lifeline_eviction_webhook_refused_total{reason}}).
 */
@ApplicationScoped
public class EvictionAdmission {

    /** Why the listener refused a review without deciding it. */
    public enum Refusal {
        /** Past the listener's rate limit (429). */
        RATE_LIMITED,
        /** Body or headers did not arrive within the request timeout (408). */
        TIMEOUT,
        /** Body over the listener's limit (413). */
        TOO_LARGE;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final EvictionWebhook webhook;
    private final Map<Refusal, Counter> refused = new EnumMap<>(Refusal.class);

    EvictionAdmission(
            EvictionGateConfig config,
            ClusterActions cluster,
            ModelRuntime runtime,
            ActionService actions,
            ActionStore audit,
            MeterRegistry registry,
            Clock clock) {
        long timeout = Math.max(1, config.readTimeout().toMillis());
        this.webhook = new EvictionWebhook(new EvictionGate(
                EvictionGate.Settings.of(config),
                cluster::jobOfPod,
                job -> {
                    try {
                        return runtime.read(m -> m.jobs().freshness(job)).get(timeout, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    } catch (ExecutionException | TimeoutException e) {
                        throw new IllegalStateException("the model did not answer: " + e, e);
                    }
                },
                actions,
                audit::audit,
                registry,
                clock));
        for (Refusal r : Refusal.values()) {
            refused.put(
                    r,
                    Counter.builder("lifeline_eviction_webhook_refused")
                            .description(
                                    "AdmissionReviews the eviction webhook's listener refused without deciding, by reason")
                            .tag("reason", r.wire())
                            .register(registry));
        }
    }

    /** Decides one review. Blocks (the cluster and the database may be asked): not on an event loop. */
    AdmissionReview answer(AdmissionReview in) {
        return webhook.answer(in);
    }

    /** The answer when every decision thread is busy: allowed, undecided. */
    AdmissionReview busy(AdmissionReview in) {
        return webhook.undecided(in, "allowed: Lifeline is busy deciding other evictions");
    }

    void refused(Refusal why) {
        refused.get(why).increment();
    }

    EvictionGate gate() {
        return webhook.gate();
    }
}
