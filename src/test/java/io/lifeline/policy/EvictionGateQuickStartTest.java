package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.connector.inbound.kube.admission.EvictionGate;
import io.lifeline.connector.inbound.kube.admission.EvictionWebhook;
import io.lifeline.demo.runtime.DemoForTests;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint-gated eviction webhook end to end with the demo's trainers: AdmissionReviews for the eviction of a
 * pod of a job whose newest checkpoint is older than the bound are answered 429 while the checkpoint-now the gate
 * asked for runs, then allowed once the trainers' checkpoint has landed; the eviction of a pod of a job that saved
 * recently is allowed at the first answer, with no checkpoint asked for.
 */
class EvictionGateQuickStartTest {

    /** A running job's pod and how old its newest checkpoint is. */
    private record Candidate(String job, ClusterActions.PodRef pod, long ageMillis) {}

    @Test
    void aStaleJobsEvictionWaitsForItsSaveAndAFreshJobsPodIsEvictedAtOnce() throws Exception {
        try (QuickStartRig rig = new QuickStartRig("eviction-gate", false)) {
            rig.start();
            ClusterActions cluster = DemoForTests.cluster(rig.demo);
            List<Candidate> running = runningJobs(rig, cluster);
            Candidate fresh = running.get(0);
            Candidate stale = running.get(running.size() - 1);
            long freshAge = age(rig, fresh.job());
            long staleAge = age(rig, stale.job());
            assertThat(staleAge).as("the stale job's checkpoint age").isGreaterThan(freshAge + 20_000);
            Duration bound = Duration.ofMillis((freshAge + staleAge) / 2);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            EvictionWebhook webhook = new EvictionWebhook(new EvictionGate(
                    new EvictionGate.Settings(true, bound, Duration.ofMinutes(10)),
                    cluster::jobOfPod,
                    job -> read(rig, job),
                    rig.actions,
                    e -> audit(rig, e),
                    registry,
                    rig.clock));

            // The fresh job: allowed at once, no checkpoint asked for.
            AdmissionReview first = webhook.answer(eviction(fresh.pod()));
            assertThat(first.getResponse().getAllowed()).isTrue();
            assertThat(ClusterOutcome.Result.EVICTED)
                    .isEqualTo(cluster.evict(fresh.pod(), false).result());

            // The stale job: held with 429 until its checkpoint lands.
            Instant heldAt = rig.clock.instant();
            AdmissionReview held = webhook.answer(eviction(stale.pod()));
            assertThat(held.getResponse().getAllowed()).isFalse();
            assertThat(held.getResponse().getStatus().getCode()).isEqualTo(429);
            assertThat(held.getResponse().getStatus().getReason()).isEqualTo("TooManyRequests");
            assertThat(held.getResponse().getStatus().getMessage()).startsWith("held: " + stale.job());
            int denials = 1;
            AdmissionReview answer = held;
            Instant until = heldAt.plus(Duration.ofMinutes(10));
            while (!answer.getResponse().getAllowed() && rig.clock.instant().isBefore(until)) {
                rig.advance(5);
                answer = webhook.answer(eviction(stale.pod()));
                if (!answer.getResponse().getAllowed()) {
                    denials++;
                }
            }
            assertThat(answer.getResponse().getAllowed())
                    .as("allowed before the hold's deadline")
                    .isTrue();
            FreshnessView after = read(rig, stale.job()).orElseThrow();
            assertThat(after.completedAt())
                    .as("a checkpoint landed during the hold")
                    .isAfter(heldAt);
            assertThat(ClusterOutcome.Result.EVICTED)
                    .isEqualTo(cluster.evict(stale.pod(), false).result());

            List<ActionView> gateActions = rig.actions
                    .list(new io.lifeline.action.view.ActionQuery(
                            null, null, null, "eviction-gate", null, null, 100, null))
                    .items();
            assertThat(gateActions).singleElement().satisfies(a -> {
                assertThat(a.kind()).isEqualTo(ActionKind.CHECKPOINT_NOW);
                assertThat(a.target()).isEqualTo(stale.job());
            });
            assertThat(registry.get("lifeline_eviction_gate_decisions")
                            .tag("decision", "fresh")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("lifeline_eviction_gate_decisions")
                            .tag("decision", "held")
                            .counter()
                            .count())
                    .isEqualTo(denials);
            assertThat(registry.get("lifeline_eviction_gate_decisions")
                            .tag("decision", "checkpointed")
                            .counter()
                            .count())
                    .isEqualTo(1);
            List<AuditEntry> audited = rig
                    .store
                    .audit(new AuditQuery("eviction-gate", null, null, null, null, null, 500, null))
                    .items()
                    .stream()
                    .filter(e -> e.what().startsWith("eviction."))
                    .toList();
            // Only what changed something: the hold beginning and its end (not the fresh answer, nor a repeated 429).
            assertThat(denials).isPositive();
            assertThat(audited).hasSize(2);
            assertThat(audited)
                    .filteredOn(e -> e.what().equals("eviction.held"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.target()).isEqualTo(stale.job()));
            assertThat(audited.get(0).after())
                    .isEqualTo(
                            "pod " + stale.pod().namespace() + "/" + stale.pod().name() + ": checkpointed");
        }
    }

    /** Advances until two jobs train on pods with checkpoints of clearly different ages; the jobs, stalest last. */
    private static List<Candidate> runningJobs(QuickStartRig rig, ClusterActions cluster) throws Exception {
        for (int s = 0; s < 1800; s += 10) {
            rig.advance(10);
            Map<String, List<String>> byNode = rig.read(m -> m.jobs().jobsByNode());
            Map<String, Candidate> found = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
                for (ClusterActions.PodRef p : cluster.trainingPodsOn(e.getKey())) {
                    Optional<FreshnessView> f = p.job() == null ? Optional.empty() : read(rig, p.job());
                    if (f.isPresent() && f.get().ageMillis() != null && f.get().completedAt() != null) {
                        found.putIfAbsent(
                                p.job(), new Candidate(p.job(), p, f.get().ageMillis()));
                    }
                }
            }
            List<Candidate> out = new ArrayList<>(found.values());
            out.sort(java.util.Comparator.comparingLong(Candidate::ageMillis));
            if (out.size() >= 2
                    && out.get(out.size() - 1).ageMillis() - out.get(0).ageMillis() > 60_000) {
                return out;
            }
        }
        throw new AssertionError("no two jobs trained with checkpoints a minute apart in age");
    }

    private static long age(QuickStartRig rig, String job) {
        return read(rig, job).orElseThrow().ageMillis();
    }

    private static Optional<FreshnessView> read(QuickStartRig rig, String job) {
        try {
            return rig.read(m -> m.jobs().freshness(job));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void audit(QuickStartRig rig, AuditEntry e) {
        rig.store.audit(e);
    }

    /** What the API server sends for {@code kubectl drain}'s eviction of {@code pod}. */
    static AdmissionReview eviction(ClusterActions.PodRef pod) {
        return new AdmissionReviewBuilder()
                .withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview")
                .withNewRequest()
                .withUid(UUID.randomUUID().toString())
                .withNewKind("policy", "Eviction", "v1")
                .withNewResource("", "pods", "v1")
                .withSubResource("eviction")
                .withName(pod.name())
                .withNamespace(pod.namespace())
                .withOperation("CREATE")
                .withObject(new io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder()
                        .withNewMetadata()
                        .withName(pod.name())
                        .withNamespace(pod.namespace())
                        .endMetadata()
                        .build())
                .endRequest()
                .build();
    }
}
