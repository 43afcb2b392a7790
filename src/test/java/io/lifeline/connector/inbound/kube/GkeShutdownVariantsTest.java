package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Node a GKE machine shows under the kubelet's graceful node shutdown, in each form the words come in
 * ({@code fixtures/cloud/gke}: the kubelet's message alone, the reason as Kubernetes' documentation describes it, the
 * message among other errors, an on-demand node, and a node that is not ready for another reason): a notice due 30 s
 * after the condition's transition, preempt on spot or preemptible capacity and maintenance otherwise, or no notice.
 */
class GkeShutdownVariantsTest {

    private static final Instant TRANSITION = Instant.parse("2026-11-30T10:00:00Z");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    record Variant(String fixture, NoticeKind kind) {
        @Override
        public String toString() {
            return fixture + " -> " + (kind == null ? "no notice" : kind.wireName());
        }
    }

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant("cloud/gke/node_spot_ready_false_kubelet_message.json", NoticeKind.PREEMPT),
                new Variant("cloud/gke/node_spot_ready_false_reason_as_documented.json", NoticeKind.PREEMPT),
                new Variant("cloud/gke/node_preemptible_aggregated_message.json", NoticeKind.PREEMPT),
                new Variant("cloud/gke/node_on_demand_shutting_down.json", NoticeKind.MAINTENANCE),
                new Variant("cloud/gke/node_spot_not_ready_other_reason.json", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theShutdownIsANoticeWhicheverFormItsWordsComeIn(Variant v) {
        Node node = JSON.unmarshal(Fixtures.text(v.fixture()), Node.class);
        Translation t = new NodeWatcher(new Captured().ctx, List.of("cloud.google.com/gke-nodepool"), "default", null)
                .added(node, TRANSITION.plusSeconds(5));

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events())
                .filteredOn(e -> e.type() == EventType.NODE_NOT_READY)
                .hasSize(1);
        List<Event> notices = t.events().stream()
                .filter(e -> e.type() == EventType.NODE_INTERRUPTION_NOTICE)
                .toList();
        if (v.kind() == null) {
            assertThat(notices).isEmpty();
        } else {
            assertThat(notices).singleElement().satisfies(e -> {
                assertThat(e.subject()).isEqualTo(node.getMetadata().getName());
                assertThat(e.time()).isEqualTo(TRANSITION);
                assertThat(e.data())
                        .isEqualTo(new NodeData.InterruptionNotice(v.kind(), "gcp", TRANSITION.plusSeconds(30)));
            });
        }
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void everySampleOfTheFolderHasAnExpectedOutcome() {
        assertThat(FixtureFolder.unnamed(
                        "cloud/gke", variants().map(Variant::fixture).toList()))
                .isEmpty();
    }
}
