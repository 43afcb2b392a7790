package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lifeline.codec.EventCodec;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every PyTorchJob and TrainJob spec of {@code fixtures/k8s} (Kubeflow's own examples: elastic with a rendezvous backend
 * and HPA metrics, fixed Master + Worker jobs, {@code nprocPerNode} as a string, GPU limits as numbers and strings, a
 * suspended TrainJob; origins in SOURCES.md) becomes the job Lifeline tracks: bounds, processes and GPUs per node,
 * restarts, and what the job shows of its elasticity (rendezvous backend, what scales it), kept through the wire format.
 */
class TrainingJobSpecVariantsTest {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();
    private static final EventCodec CODEC = new EventCodec();

    record Variant(String fixture, boolean trainJob, ElasticPolicy elastic, int gpusPerNode) {
        @Override
        public String toString() {
            return fixture;
        }
    }

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant(
                        "k8s/pytorchjob_elastic_echo.yaml", false, new ElasticPolicy(1, 2, 1, 100, "c10d", null), 0),
                new Variant(
                        "k8s/pytorchjob_elastic_imagenet_hpa_metrics.yaml",
                        false,
                        new ElasticPolicy(1, 3, 1, 100, "c10d", "cpu Utilization 80%"),
                        0),
                new Variant(
                        "k8s/pytorchjob_cpu_demo_nproc_per_node_string.yaml", false, new ElasticPolicy(2, 2, 2, 0), 0),
                new Variant("k8s/pytorchjob_simple_master_worker.yaml", false, new ElasticPolicy(2, 2, 1, 0), 0),
                new Variant("k8s/pytorchjob_mnist_nccl_gpu_limits.yaml", false, new ElasticPolicy(2, 2, 1, 0), 1),
                new Variant("k8s/trainjob_kueue_integration.yaml", true, new ElasticPolicy(3, 3, 1, 0), 0),
                new Variant("k8s/trainjob_multi_node_examples.yaml", true, new ElasticPolicy(3, 3, 1, 0), 0),
                new Variant("k8s/trainjob_flux_lammps_gpus_examples.yaml", true, new ElasticPolicy(2, 2, 1, 0), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everySpecBecomesItsJobWithWhatItSaysOfItsElasticity(Variant v) {
        String text = Fixtures.text(v.fixture());
        java.util.regex.Matcher kind = java.util.regex.Pattern.compile(
                        "\nkind: \"?" + (v.trainJob() ? "TrainJob" : "PyTorchJob"))
                .matcher(text);
        assertThat(kind.find()).as("the spec in %s", v.fixture()).isTrue();
        int doc = kind.start();
        int start = text.lastIndexOf("apiVersion:", doc);
        int end = text.indexOf("\n---", doc);
        GenericKubernetesResource job =
                YAML.unmarshal(text.substring(start, end < 0 ? text.length() : end), GenericKubernetesResource.class);

        ElasticPolicy elastic = v.trainJob()
                ? TrainJobWatcher.facts(job).elastic()
                : PyTorchJobWatcher.facts(job).elastic();
        int gpus = v.trainJob()
                ? TrainJobWatcher.facts(job).gpusPerNode()
                : PyTorchJobWatcher.facts(job).gpusPerNode();
        assertThat(elastic).isEqualTo(v.elastic());
        assertThat(gpus).isEqualTo(v.gpusPerNode());

        Event submitted = new Event(
                "job/1",
                "kubernetes/test",
                EventType.JOB_SUBMITTED,
                "ns/job",
                Instant.parse("2026-12-02T08:00:00Z"),
                new JobData.Submitted("ns", null, null, elastic, gpus, null));
        assertThat(CODEC.decodeEvent(CODEC.encodeEvent(submitted)))
                .as("the wire keeps it")
                .isEqualTo(submitted);
    }
}
