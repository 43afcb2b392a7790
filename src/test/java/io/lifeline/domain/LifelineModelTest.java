package io.lifeline.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeChange;
import io.lifeline.domain.fleet.NodeInfo;
import io.lifeline.domain.fleet.NodeModel;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.testing.MovableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Routing: node and GPU events to the node model, its signals to the jobs, the rest to the jobs. */
class LifelineModelTest {

    /** A node model that remembers registrations and raises one signal per notice, termination and XID. */
    static final class FakeNodes implements NodeModel {
        final List<Event> seen = new ArrayList<>();
        final Map<String, NodeInfo> nodes = new HashMap<>();

        @Override
        public NodeChange change(Event e) {
            return new NodeChange(ApplyOutcome.CHANGED, signals(e));
        }

        private List<NodeSignal> signals(Event e) {
            seen.add(e);
            EventData d = e.data();
            if (d instanceof NodeData.Registered r) {
                nodes.put(
                        e.subject(),
                        new NodeInfo(
                                e.subject(), r.pool(), r.capacityType(), r.zone(), r.instanceType(), r.gpuCount()));
            } else if (d instanceof NodeData.InterruptionNotice n) {
                return List.of(new NodeSignal(
                        e.subject(),
                        e.time(),
                        NodeSignal.Kind.INTERRUPTION_NOTICE,
                        n.kind(),
                        n.deadline(),
                        n.provider()));
            } else if (d instanceof NodeData.Terminated t) {
                return List.of(
                        new NodeSignal(e.subject(), e.time(), NodeSignal.Kind.TERMINATED, null, null, t.reason()));
            } else if (d instanceof GpuData.Xid x) {
                return List.of(new NodeSignal(
                        e.subject(), e.time(), NodeSignal.Kind.GPU_FAILED, null, null, "XID " + x.xid()));
            }
            return List.of();
        }

        @Override
        public NodeInfo find(String node) {
            return nodes.get(node);
        }
    }

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private final FakeNodes fleet = new FakeNodes();
    private final MovableClock clock = new MovableClock(T0);
    private final LifelineModel model = new LifelineModel(fleet, clock);
    private int ids;

    private void apply(String subject, int second, EventType type, EventData data) {
        model.apply(new Event("e" + (++ids), "test", type, subject, T0.plusSeconds(second), data));
    }

    @Test
    void nodeEventsReachJobsOnlyAsSignalsOfTheNodeModel() {
        for (String n : List.of("n1", "n2")) {
            apply(
                    n,
                    0,
                    EventType.NODE_REGISTERED,
                    new NodeData.Registered("gpu-spot", CapacityType.SPOT, "a", "p5", 8, null));
        }
        apply(
                "ml/llm",
                0,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("ml", null, null, new ElasticPolicy(1, 2, 8, 3), 8, 1800L));
        apply(
                "ml/llm",
                10,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous(
                        "r",
                        1,
                        16,
                        List.of(new TrainerData.Participant("n1", 0, 8), new TrainerData.Participant("n2", 8, 8))));
        apply("ml/llm", 20, EventType.TRAINER_PROGRESS, new TrainerData.Progress(1, null, null));
        apply(
                "n2",
                30,
                EventType.GPU_SAMPLE,
                new GpuData.Sample(
                        "GPU-1", 0, "H100", 99.0, null, null, null, null, null, null, null, null, null, null, null));
        apply(
                "n2",
                40,
                EventType.NODE_INTERRUPTION_NOTICE,
                new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", T0.plusSeconds(160)));
        apply("n2", 160, EventType.NODE_TERMINATED, new NodeData.Terminated("spot reclaimed"));

        assertThat(fleet.seen)
                .extracting(Event::type)
                .containsExactly(
                        EventType.NODE_REGISTERED,
                        EventType.NODE_REGISTERED,
                        EventType.GPU_SAMPLE,
                        EventType.NODE_INTERRUPTION_NOTICE,
                        EventType.NODE_TERMINATED);
        assertThat(model.jobs().ignoredEvents()).isZero();
        assertThat(model.jobs().detail("ml/llm").orElseThrow().summary().state())
                .isEqualTo(JobState.RECOVERING);
        IncidentView i = model.jobs().incidents("ml/llm").orElseThrow().get(0);
        assertThat(i.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(i.announcedLeadMillis()).isEqualTo(120_000);
        assertThat(i.pool()).isEqualTo("gpu-spot");
        assertThat(model.jobs().detail("ml/llm").orElseThrow().summary().capacityType())
                .isEqualTo("spot");
        assertThat(model.nodes()).isSameAs(fleet);
    }

    @Test
    void aGpuFaultOnANodeWithoutJobsTouchesNoJob() {
        apply("n9", 0, EventType.GPU_XID, new GpuData.Xid("GPU-9", 0, 79, "fallen off the bus"));
        assertThat(fleet.seen).hasSize(1);
        assertThat(model.jobs().size()).isZero();
    }
}
