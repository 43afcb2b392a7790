package io.lifeline.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertChange;
import io.lifeline.domain.alert.AlertEngine;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertRules;
import io.lifeline.domain.alert.AlertSnapshot;
import io.lifeline.domain.alert.Evaluation;
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
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model part of a snapshot, filled from a real model fed with events, and what the rules make of it. */
class AlertSnapshotsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final LiveModel model = LiveModel.create(Clock.fixed(T0.plusSeconds(300), ZoneOffset.UTC));
    private int ids;

    private void apply(String subject, int second, EventType type, EventData data) {
        model.root().apply(new Event("e" + (++ids), "test", type, subject, T0.plusSeconds(second), data));
    }

    private void trainingJobWithCheckpointAt(String job, int second) {
        apply(
                job,
                0,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("ml", null, null, new ElasticPolicy(1, 2, 8, 3), 8, 1800L));
        apply(
                job,
                10,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous(
                        "r",
                        1,
                        16,
                        List.of(new TrainerData.Participant("n1", 0, 8), new TrainerData.Participant("n2", 8, 8))));
        apply(job, 20, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, null, null));
        apply(
                job,
                second,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted("ck-1", 100, null, 3.0, 1.0, null, null, null, false, 16));
    }

    @Test
    void aNoticeWithoutCheckpointBeforeTerminationAndAFatalXidBecomeAlerts() {
        for (String n : List.of("n1", "n2")) {
            apply(
                    n,
                    0,
                    EventType.NODE_REGISTERED,
                    new NodeData.Registered("gpu-spot", CapacityType.SPOT, "a", "p5", 8, null));
        }
        trainingJobWithCheckpointAt("ml/llm", 30);
        apply(
                "n2",
                40,
                EventType.NODE_INTERRUPTION_NOTICE,
                new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", T0.plusSeconds(160)));
        apply("n2", 160, EventType.NODE_TERMINATED, new NodeData.Terminated("spot reclaimed"));
        apply("n1", 200, EventType.GPU_XID, new GpuData.Xid("GPU-n1-3", 3, 79, "GPU has fallen off the bus"));

        AlertSnapshots.ModelPart part =
                AlertSnapshots.fromModel(ModelSnapshot.take(model, ModelSnapshot.EMPTY, T0.plusSeconds(300), 0));
        assertThat(part.notices()).singleElement().satisfies(n -> {
            assertThat(n.job()).isEqualTo("ml/llm");
            assertThat(n.node()).isEqualTo("n2");
            assertThat(n.noticeAt()).isEqualTo(T0.plusSeconds(40));
            assertThat(n.checkpointsCompleted()).containsExactly(T0.plusSeconds(30));
        });
        assertThat(part.xids()).singleElement().satisfies(x -> {
            assertThat(x.node()).isEqualTo("n1");
            assertThat(x.xid()).isEqualTo(79);
            assertThat(x.fatal()).isTrue();
        });
        assertThat(part.jobs())
                .singleElement()
                .satisfies(j -> assertThat(j.restartTimes()).hasSize(1));

        Evaluation ev = new AlertEngine(AlertRules.defaults(), 100, 100)
                .evaluate(
                        new AlertSnapshot(part.jobs(), part.notices(), part.xids(), part.nodes(), List.of(), null),
                        List.of(),
                        T0.plusSeconds(300));
        assertThat(ev.changes())
                .extracting(c -> c.alert().rule())
                .contains(AlertRule.NOTICE_UNHANDLED, AlertRule.FATAL_XID);
        assertThat(ev.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.NOTICE_UNHANDLED)
                .extracting(AlertChange::notifiable)
                .containsExactly(true);
    }

    @Test
    void aCheckpointBetweenNoticeAndTerminationHandlesTheNotice() {
        apply(
                "n1",
                0,
                EventType.NODE_REGISTERED,
                new NodeData.Registered("gpu-spot", CapacityType.SPOT, "a", "p5", 8, null));
        apply(
                "n2",
                0,
                EventType.NODE_REGISTERED,
                new NodeData.Registered("gpu-spot", CapacityType.SPOT, "a", "p5", 8, null));
        trainingJobWithCheckpointAt("ml/llm", 30);
        apply(
                "n2",
                40,
                EventType.NODE_INTERRUPTION_NOTICE,
                new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", T0.plusSeconds(160)));
        apply(
                "ml/llm",
                90,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted("ck-2", 150, null, 3.0, 1.0, null, null, null, false, 16));
        apply("n2", 160, EventType.NODE_TERMINATED, new NodeData.Terminated("spot reclaimed"));

        AlertSnapshots.ModelPart part =
                AlertSnapshots.fromModel(ModelSnapshot.take(model, ModelSnapshot.EMPTY, T0.plusSeconds(300), 0));
        Evaluation ev = new AlertEngine(AlertRules.defaults(), 100, 100)
                .evaluate(
                        new AlertSnapshot(part.jobs(), part.notices(), part.xids(), part.nodes(), List.of(), null),
                        List.of(),
                        T0.plusSeconds(300));
        assertThat(ev.changes()).extracting(c -> c.alert().rule()).doesNotContain(AlertRule.NOTICE_UNHANDLED);
    }

    @Test
    void anOpenHangIncidentBecomesJobHungUntilTrainingMovesAgain() {
        trainingJobWithCheckpointAt("ml/llm", 30);
        apply(
                "ml/llm",
                200,
                EventType.JOB_HANG_SUSPECTED,
                new JobData.HangSuspected(
                        "training",
                        T0.plusSeconds(40),
                        160,
                        60,
                        "3 x p99 step time",
                        null,
                        List.of(new JobData.HangSuspect(9, "n2", "1", 100L, "stopped first")),
                        List.of()));

        AlertSnapshots.ModelPart part =
                AlertSnapshots.fromModel(ModelSnapshot.take(model, ModelSnapshot.EMPTY, T0.plusSeconds(300), 0));
        assertThat(part.jobs()).singleElement().satisfies(j -> {
            assertThat(j.hang()).isNotNull();
            assertThat(j.hang().suspectNodes()).containsExactly("n2");
            assertThat(j.hang().detail()).contains("suspect rank 9 on n2");
        });
        AlertEngine engine = new AlertEngine(AlertRules.defaults(), 100, 100);
        Evaluation ev = engine.evaluate(
                new AlertSnapshot(part.jobs(), part.notices(), part.xids(), part.nodes(), List.of(), null),
                List.of(),
                T0.plusSeconds(300));
        assertThat(ev.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.JOB_HUNG)
                .singleElement()
                .satisfies(c ->
                        assertThat(c.alert().annotations().get("summary")).isEqualTo("ml/llm is hung: suspect on n2"));

        // Training moves again without a restart: the incident closes, and so does the alert.
        apply("ml/llm", 310, EventType.TRAINER_PROGRESS, new TrainerData.Progress(101, null, null));
        AlertSnapshots.ModelPart after =
                AlertSnapshots.fromModel(ModelSnapshot.take(model, ModelSnapshot.EMPTY, T0.plusSeconds(320), 0));
        assertThat(after.jobs())
                .singleElement()
                .satisfies(j -> assertThat(j.hang()).isNull());
        Evaluation resolved = engine.evaluate(
                new AlertSnapshot(after.jobs(), after.notices(), after.xids(), after.nodes(), List.of(), null),
                List.of(),
                T0.plusSeconds(320));
        assertThat(resolved.changes())
                .filteredOn(c -> c.alert().rule() == AlertRule.JOB_HUNG)
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(io.lifeline.domain.alert.AlertState.RESOLVED));
    }
}
