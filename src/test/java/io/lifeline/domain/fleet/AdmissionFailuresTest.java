package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.T0;
import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.event;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.NodeAdmissionFailures;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Pods a node's kubelet rejected: a suspect verdict with its evidence, bounded per node, counted for reliability. */
class AdmissionFailuresTest {

    private static final String NODE = "ip-10-4-164-212";

    private final Fleet fleet = new Fleet(Clock.fixed(T0.plusSeconds(600), ZoneOffset.UTC));

    static Event rejected(String node, Instant t, String pod) {
        return event(
                EventType.NODE_ADMISSION_FAILED,
                node,
                t,
                new NodeData.AdmissionFailed(
                        "arc-runners/" + pod,
                        "UnexpectedAdmissionError",
                        "Pod was rejected: Allocate failed due to ... GPU is lost, which is unexpected"));
    }

    @Test
    void fiveRejectionsWithinTenMinutesOnAReadyNodeMakeASuspectWithItsEvidence() {
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        for (int i = 0; i < 4; i++) {
            fleet.apply(rejected(NODE, at(60 + i * 60), "pod-" + i));
        }
        assertThat(fleet.admissionFailures(NODE, at(240)).orElseThrow().suspect())
                .isFalse();
        fleet.apply(rejected(NODE, at(300), "pod-4"));
        AdmissionSuspect s = fleet.admissionFailures(NODE, at(300)).orElseThrow();
        assertThat(s.suspect()).isTrue();
        assertThat(s.count()).isEqualTo(5);
        assertThat(s.first()).isEqualTo(at(60));
        assertThat(s.last()).isEqualTo(at(300));
        assertThat(s.failures()).extracting(AdmissionFailure::pod).contains("arc-runners/pod-0", "arc-runners/pod-4");
        assertThat(s.evidence()).contains("5 pod(s) rejected", "threshold 5", "arc-runners/pod-4", "GPU is lost");
        assertThat(fleet.admissionFailures())
                .singleElement()
                .extracting(AdmissionSuspect::node)
                .isEqualTo(NODE);
    }

    @Test
    void rejectionsSpreadWiderThanTheWindowOrOnANodeThatIsNotReadyMakeNoSuspect() {
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        for (int i = 0; i < 5; i++) {
            fleet.apply(rejected(NODE, at(10 + i * 180L), "pod-" + i));
        }
        assertThat(fleet.admissionFailures(NODE, at(10 + 4 * 180L))
                        .orElseThrow()
                        .count())
                .isEqualTo(4);
        assertThat(fleet.admissionFailures(NODE, at(10 + 4 * 180L))
                        .orElseThrow()
                        .suspect())
                .isFalse();

        fleet.apply(rejected(NODE, at(730), "pod-5"));
        assertThat(fleet.admissionFailures(NODE, at(730)).orElseThrow().suspect())
                .isTrue();
        fleet.apply(notReady(NODE, at(731)));
        assertThat(fleet.admissionFailures(NODE, at(731)).orElseThrow().suspect())
                .isFalse();
    }

    @Test
    void theThresholdAndWindowAreSettings() {
        fleet.admissionSettings(new AdmissionSettings(2, java.time.Duration.ofMinutes(1)));
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        fleet.apply(rejected(NODE, at(10), "a"));
        fleet.apply(rejected(NODE, at(20), "b"));
        assertThat(fleet.admissionFailures(NODE, at(20)).orElseThrow().suspect())
                .isTrue();
        assertThat(fleet.admissionFailures(NODE, at(100)).orElseThrow().suspect())
                .isFalse();
    }

    @Test
    void memoryIsBoundedWhateverTheRateAndTheCountsSurviveACheckpoint() {
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        for (int i = 0; i < 554; i++) {
            fleet.apply(rejected(NODE, at(2 + i), "pod-" + i));
        }
        AdmissionSuspect s = fleet.admissionFailures(NODE, at(556)).orElseThrow();
        assertThat(s.failures()).hasSize(AdmissionLog.KEPT);
        assertThat(s.count()).isEqualTo(AdmissionLog.KEPT);
        assertThat(s.total()).isEqualTo(554);
        assertThat(s.failures().get(AdmissionLog.KEPT - 1).pod()).isEqualTo("arc-runners/pod-553");

        NodeAdmissionFailures row = fleet.reliability(7, GroupBy.POOL, null, null)
                .admissionFailures()
                .get(0);
        assertThat(row.node()).isEqualTo(NODE);
        assertThat(row.count()).isEqualTo(554);
        assertThat(row.suspect()).isTrue();

        Fleet copy = new Fleet(Clock.fixed(T0.plusSeconds(600), ZoneOffset.UTC));
        copy.restore(fleet.save());
        assertThat(copy.admissionFailures(NODE, at(556))).isEqualTo(fleet.admissionFailures(NODE, at(556)));
        assertThat(copy.reliability(7, GroupBy.POOL, null, null).admissionFailures())
                .isEqualTo(fleet.reliability(7, GroupBy.POOL, null, null).admissionFailures());
    }

    @Test
    void aNewLifeStartsWithoutSuspicionButTheNodesCountStays() {
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        for (int i = 0; i < 5; i++) {
            fleet.apply(rejected(NODE, at(10 + i), "pod-" + i));
        }
        fleet.apply(event(EventType.NODE_TERMINATED, NODE, at(20), new NodeData.Terminated("replaced")));
        fleet.apply(registered(NODE, at(30)));
        fleet.apply(ready(NODE, at(31)));
        AdmissionSuspect s = fleet.admissionFailures(NODE, at(32)).orElseThrow();
        assertThat(s.count()).isZero();
        assertThat(s.total()).isEqualTo(5);
    }
}
