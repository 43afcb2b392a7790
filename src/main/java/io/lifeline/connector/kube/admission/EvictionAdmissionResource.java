package io.lifeline.connector.kube.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.lifeline.action.ActionService;
import io.lifeline.action.ActionStore;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /admission/v1/evictions}: the validating admission webhook the API server calls for every
 * {@code pods/eviction} CREATE in the namespaces the ValidatingWebhookConfiguration selects
 * ({@code deploy/k8s/eviction-gate}). An AdmissionReview v1 in, one out; the decision is {@link EvictionGate}'s.
 * Outside {@code /api}, so it needs no token (the API server sends none by default): it can only hold an eviction
 * back for a bounded time and ask a stale job for a checkpoint.
 */
@Path("/admission/v1/evictions")
@ApplicationScoped
@Startup
public class EvictionAdmissionResource {

    private final EvictionWebhook webhook;
    private final ObjectMapper json;

    EvictionAdmissionResource(EvictionGateConfig config, ClusterActions cluster, ModelRuntime runtime,
                              ActionService actions, ActionStore audit, MeterRegistry registry, ObjectMapper json,
                              Clock clock) {
        this.json = json;
        long timeout = Math.max(1, config.readTimeout().toMillis());
        this.webhook = new EvictionWebhook(new EvictionGate(EvictionGate.Settings.of(config), cluster::jobOfPod, job -> {
            try {
                return runtime.read(m -> m.jobs().freshness(job)).get(timeout, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the model did not answer: " + e, e);
            }
        }, actions, e -> {
            try {
                audit.audit(e);
            } catch (SQLException ex) {
                throw new IllegalStateException(ex.getMessage(), ex);
            }
        }, registry, clock));
    }

    /** Decides one AdmissionReview; a body that is none answers 400 (a problem document). */
    @POST
    @Blocking
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public AdmissionReview review(String body) {
        AdmissionReview in;
        try {
            in = json.readValue(body == null ? "" : body, AdmissionReview.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not an AdmissionReview (admission.k8s.io/v1)", e);
        }
        return webhook.answer(in);
    }

    EvictionGate gate() {
        return webhook.gate();
    }
}
