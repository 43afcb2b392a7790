package io.lifeline.connector.inbound.kube.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionService;
import io.lifeline.action.Submitted;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.page.Page;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.MovableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EvictionGateTest {

    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
    private static final String JOB = "ml/llama";

    private final MovableClock clock = new MovableClock(T0);
    private final Map<String, FreshnessView> views = new HashMap<>();
    private final List<ActionRequest> submitted = new ArrayList<>();
    private final List<AuditEntry> audit = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private RuntimeException refuse;

    private final ActionService actions = new ActionService() {
        @Override
        public Impact dryRun(ActionRequest request, Caller caller) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Submitted submit(ActionRequest request, Caller caller, String idempotencyKey) {
            if (refuse != null) {
                throw refuse;
            }
            submitted.add(request);
            return new Submitted(
                    new ActionView(
                            "act-" + submitted.size(),
                            request.kind(),
                            request.target(),
                            request.params(),
                            request.reason(),
                            caller.name(),
                            ActionState.PENDING,
                            clock.instant(),
                            clock.instant(),
                            null,
                            null,
                            List.of(),
                            null),
                    false);
        }

        @Override
        public Optional<ActionView> find(String id) {
            return Optional.empty();
        }

        @Override
        public Page<ActionView> list(ActionQuery query) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ActionView cancel(String id, Caller caller) {
            throw new UnsupportedOperationException();
        }
    };

    private EvictionWebhook webhook(boolean enabled) {
        return new EvictionWebhook(new EvictionGate(
                new EvictionGate.Settings(enabled, Duration.ofMinutes(15), Duration.ofMinutes(10)),
                (ns, pod) -> pod.startsWith("llama-") ? ns + "/llama" : null,
                job -> Optional.ofNullable(views.get(job)),
                actions,
                audit::add,
                registry,
                clock));
    }

    /** The job's newest checkpoint completed at {@code at}. */
    private void checkpointAt(Instant at) {
        views.put(
                JOB,
                new FreshnessView(
                        "ck-" + at.getEpochSecond(),
                        100L,
                        at,
                        Duration.between(at, clock.instant()).toMillis(),
                        0L,
                        8,
                        1.0,
                        900_000,
                        false,
                        false,
                        null,
                        null,
                        false,
                        null,
                        "any"));
    }

    @Test
    void aStaleJobIsHeldUntilItsCheckpointLandsThenAllowed() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofMinutes(40)));
        AdmissionReview first = roundTrip(w, eviction("ml", "llama-worker-0"));
        assertThat(first.getResponse().getAllowed()).isFalse();
        assertThat(first.getResponse().getStatus().getCode()).isEqualTo(429);
        assertThat(first.getResponse().getUid()).isEqualTo("uid-ml-llama-worker-0");
        assertThat(submitted).singleElement().satisfies(r -> {
            assertThat(r.target()).isEqualTo(JOB);
            assertThat(r.params()).containsEntry("deadlineSeconds", "600");
        });
        // A second pod of the same job during the hold: held too, no second checkpoint asked for.
        clock.advance(Duration.ofSeconds(5));
        checkpointAt(T0.minus(Duration.ofMinutes(40)));
        assertThat(w.answer(eviction("ml", "llama-worker-1")).getResponse().getAllowed())
                .isFalse();
        assertThat(submitted).hasSize(1);

        clock.advance(Duration.ofSeconds(30));
        checkpointAt(clock.instant().minusSeconds(3));
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isTrue();
        assertThat(w.gate().holds()).isZero();
        assertThat(count("held")).isEqualTo(2);
        assertThat(count("checkpointed")).isEqualTo(1);
        // Audited: the hold beginning and ending; the second pod's answer changed nothing.
        assertThat(audit).extracting(AuditEntry::what).containsExactly("eviction.held", "eviction.allowed");
        assertThat(audit.get(0).actionId()).isEqualTo("act-1");
    }

    @Test
    void aHoldEndsAtItsDeadlineWithoutACheckpoint() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofHours(2)));
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isFalse();
        clock.advance(Duration.ofMinutes(9));
        checkpointAt(T0.minus(Duration.ofHours(2)));
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isFalse();
        clock.advance(Duration.ofMinutes(1));
        AdmissionReview last = w.answer(eviction("ml", "llama-worker-0"));
        assertThat(last.getResponse().getAllowed()).isTrue();
        assertThat(count("deadline")).isEqualTo(1);
        assertThat(audit.get(audit.size() - 1).reason()).contains("no checkpoint of ml/llama landed within PT10M");
    }

    @Test
    void aFreshJobAndPodsOfOtherWorkloadsAreAllowedAtOnce() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofMinutes(5)));
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isTrue();
        assertThat(w.answer(eviction("web", "nginx-7f9")).getResponse().getAllowed())
                .isTrue();
        assertThat(submitted).isEmpty();
        assertThat(count("fresh")).isEqualTo(1);
        assertThat(count("untracked")).isEqualTo(1);
        // Nothing changed: counted, not audited.
        assertThat(audit).isEmpty();
    }

    @Test
    void aJobThatCannotCheckpointIsNotHeld() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofHours(1)));
        refuse = new ActionRejectedException("target", "job ml/llama is not running");
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isTrue();
        assertThat(count("refused")).isEqualTo(1);
        assertThat(w.gate().holds()).isZero();
    }

    @Test
    void offOrUnableToAskItAllows() {
        checkpointAt(T0.minus(Duration.ofHours(1)));
        assertThat(webhook(false)
                        .answer(eviction("ml", "llama-worker-0"))
                        .getResponse()
                        .getAllowed())
                .isTrue();
        EvictionWebhook broken = new EvictionWebhook(new EvictionGate(
                new EvictionGate.Settings(true, Duration.ofMinutes(15), Duration.ofMinutes(10)),
                (ns, pod) -> {
                    throw new IllegalStateException("API server unreachable");
                },
                job -> Optional.empty(),
                actions,
                audit::add,
                registry,
                clock));
        assertThat(broken.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isTrue();
        assertThat(count("unknown")).isEqualTo(2);
        assertThat(submitted).isEmpty();
    }

    @Test
    void requestsThatAreNotPodEvictionsAreAllowedAndAReviewWithoutUidIsRefused() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofHours(1)));
        AdmissionReview deletion = new AdmissionReviewBuilder()
                .withNewRequest()
                .withUid("u1")
                .withNewResource("", "pods", "v1")
                .withOperation("DELETE")
                .withName("llama-worker-0")
                .withNamespace("ml")
                .endRequest()
                .build();
        assertThat(w.answer(deletion).getResponse().getAllowed()).isTrue();
        assertThat(submitted).isEmpty();
        assertThatThrownBy(() -> w.answer(new AdmissionReviewBuilder()
                        .withNewRequest()
                        .endRequest()
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uid");
    }

    /** The webhook declares sideEffects NoneOnDryRun: {@code kubectl drain --dry-run=server} starts nothing. */
    @Test
    void aDryRunOfAStaleJobsEvictionIsAllowedAndStartsNothing() {
        EvictionWebhook w = webhook(true);
        checkpointAt(T0.minus(Duration.ofHours(1)));
        AdmissionReview dry = eviction("ml", "llama-worker-0");
        dry.getRequest().setDryRun(true);
        assertThat(roundTrip(w, dry).getResponse().getAllowed()).isTrue();
        assertThat(submitted).isEmpty();
        assertThat(w.gate().holds()).isZero();
        assertThat(audit).isEmpty();
        // The same eviction for real is held.
        assertThat(w.answer(eviction("ml", "llama-worker-0")).getResponse().getAllowed())
                .isFalse();
        assertThat(submitted).hasSize(1);
    }

    private double count(String decision) {
        return registry.get("lifeline_eviction_gate_decisions")
                .tag("decision", decision)
                .counter()
                .count();
    }

    /** Through JSON both ways, as the API server and the webhook exchange it. */
    private static AdmissionReview roundTrip(EvictionWebhook w, AdmissionReview in) {
        AdmissionReview parsed = Serialization.unmarshal(Serialization.asJson(in), AdmissionReview.class);
        String answer = Serialization.asJson(w.answer(parsed));
        assertThat(answer).contains("\"apiVersion\":\"admission.k8s.io/v1\"", "\"kind\":\"AdmissionReview\"");
        return Serialization.unmarshal(answer, AdmissionReview.class);
    }

    static AdmissionReview eviction(String namespace, String pod) {
        return new AdmissionReviewBuilder()
                .withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview")
                .withNewRequest()
                .withUid("uid-" + namespace + "-" + pod)
                .withNewKind("policy", "Eviction", "v1")
                .withNewResource("", "pods", "v1")
                .withSubResource("eviction")
                .withName(pod)
                .withNamespace(namespace)
                .withOperation("CREATE")
                .withObject(new io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder()
                        .withNewMetadata()
                        .withName(pod)
                        .withNamespace(namespace)
                        .endMetadata()
                        .build())
                .endRequest()
                .build();
    }
}
