package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.CloudEvents;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The heartbeat's fields, trainer.stacks and job.hang_suspected: read, written back the same, refused with a reason. */
class HangCodecTest {

    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
    private final EventCodec codec = new EventCodec();

    private DecodedBatch decode(String type, String data) {
        return codec.decodeBody(
                CloudEvents.event("e1", "agent/ml/llm/0", type, "ml/llm", T, data)
                        .getBytes(StandardCharsets.UTF_8),
                false);
    }

    private String reason(String type, String data) {
        DecodedBatch b = decode(type, data);
        assertThat(b.events()).isEmpty();
        return b.rejections().get(0).reason();
    }

    @Test
    void aHeartbeatWithoutStepsCarriesItsStallAndPhase() {
        DecodedBatch b = decode(
                "trainer.step_times",
                "{\"rank\":1,\"localRank\":1,\"node\":\"n1\",\"steps\":0,\"toStep\":17,\"sinceStepSeconds\":41.5,"
                        + "\"phase\":\"evaluation\",\"phaseSeconds\":12}");

        assertThat(b.rejections()).isEmpty();
        TrainerData.StepTimes s = (TrainerData.StepTimes) b.events().get(0).data();
        assertThat(s.hasSteps()).isFalse();
        assertThat(s.sinceStepSeconds()).isEqualTo(41.5);
        assertThat(s.phase()).isEqualTo("evaluation");
        assertThat(s.phaseSeconds()).isEqualTo(12.0);
    }

    @Test
    void badHeartbeatsAreRefusedNamingTheField() {
        assertThat(reason("trainer.step_times", "{\"rank\":1,\"steps\":3,\"toStep\":17}"))
                .isEqualTo("data.medianSeconds: required when steps is above 0");
        assertThat(reason(
                        "trainer.step_times",
                        "{\"rank\":1,\"steps\":0,\"toStep\":17,\"phase\":\"Robert'); DROP TABLE\"}"))
                .startsWith("data.phase: a phase is a lower-case name");
        assertThat(reason("trainer.step_times", "{\"rank\":1,\"steps\":0,\"toStep\":17,\"sinceStepSeconds\":-1}"))
                .startsWith("data.sinceStepSeconds: must be between");
    }

    @Test
    void stacksAreReadWithTheirThreadsAndFrames() {
        DecodedBatch b = decode(
                "trainer.stacks",
                "{\"requestId\":\"stacks-1\",\"rank\":0,\"node\":\"n1\",\"pid\":42,\"step\":17,\"phase\":\"training\","
                        + "\"via\":\"frames\",\"threads\":[{\"name\":\"MainThread\",\"main\":true,\"frames\":["
                        + "{\"file\":\"train.py\",\"line\":80,\"function\":\"main\"},"
                        + "{\"file\":\"torch/distributed/distributed_c10d.py\",\"line\":2501,\"function\":\"all_reduce\"}]}]}");

        assertThat(b.rejections()).isEmpty();
        TrainerData.Stacks s = (TrainerData.Stacks) b.events().get(0).data();
        assertThat(s.threads()).singleElement().satisfies(t -> {
            assertThat(t.main()).isTrue();
            assertThat(t.frames()).extracting(TrainerData.StackFrame::function).containsExactly("main", "all_reduce");
        });
        assertThat(EventType.TRAINER_STACKS.isTelemetry()).isFalse();
    }

    @Test
    void hostileStacksAreRefusedWithAReason() {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i <= HangCodec.MAX_THREADS; i++) {
            many.append(i == 0 ? "" : ",").append("{\"name\":\"t\",\"frames\":[]}");
        }
        many.append(']');
        assertThat(reason("trainer.stacks", "{\"requestId\":\"r\",\"rank\":0,\"threads\":" + many + "}"))
                .isEqualTo("data.threads: more than 64 threads");
        assertThat(reason("trainer.stacks", "{\"requestId\":\"r\",\"rank\":0,\"threads\":[]}"))
                .startsWith("data.threads: required (or text)");
        assertThat(reason(
                        "trainer.stacks",
                        "{\"requestId\":\"r\",\"rank\":0,\"threads\":[{\"frames\":[{\"file\":\"a\",\"line\":\"x\","
                                + "\"function\":\"f\"}]}]}"))
                .startsWith("data.threads[0].frames[0].line: expected an integer");
        assertThat(reason(
                        "trainer.stacks",
                        "{\"requestId\":\"r\",\"rank\":0,\"text\":\"" + "x".repeat(HangCodec.MAX_TEXT + 1) + "\"}"))
                .isEqualTo("data.text: longer than 32768 characters");
        assertThat(reason("trainer.stacks", "{\"requestId\":\"r\",\"rank\":0,\"via\":\"gdb\",\"text\":\"x\"}"))
                .startsWith("data.via: expected frames or faulthandler");
    }

    @Test
    void aSuspicionIsReadAndRefusedWithoutItsStart() {
        assertThat(reason(
                        "job.hang_suspected", "{\"kind\":\"training\",\"stalledSeconds\":60,\"thresholdSeconds\":30}"))
                .isEqualTo("data.since: required");
        assertThat(reason(
                        "job.hang_suspected",
                        "{\"kind\":\"bored\",\"since\":\"2026-03-01T09:59:00Z\",\"stalledSeconds\":60,"
                                + "\"thresholdSeconds\":30}"))
                .startsWith("data.kind: expected training, save, phase, startup or status");
    }

    @Test
    void everyNewShapeIsWrittenBackAsItWasRead() {
        List<Event> samples = List.of(
                new Event(
                        "a",
                        "s",
                        EventType.TRAINER_STEP_TIMES,
                        "ml/llm",
                        T,
                        new TrainerData.StepTimes(1, 1, "n1", 0, 17, 0, null, null, 41.5, "saving", 40.0)),
                new Event(
                        "b",
                        "s",
                        EventType.TRAINER_STEP_TIMES,
                        "ml/llm",
                        T,
                        new TrainerData.StepTimes(1, null, null, 5, 17, 1.5, 2.0, 1.0, 0.2, "training", 300.0)),
                new Event(
                        "c",
                        "s",
                        EventType.TRAINER_STACKS,
                        "ml/llm",
                        T,
                        new TrainerData.Stacks(
                                "r",
                                1,
                                1,
                                "n1",
                                42,
                                17L,
                                "training",
                                40.0,
                                "faulthandler",
                                List.of(new TrainerData.StackThread(
                                        "thread-0x1",
                                        true,
                                        false,
                                        List.of(new TrainerData.StackFrame("train.py", 55, "load_batch")))),
                                "Thread 0x1 (most recent call first):\n  File \"train.py\", line 55 in load_batch")),
                new Event(
                        "d",
                        "s",
                        EventType.JOB_HANG_SUSPECTED,
                        "ml/llm",
                        T,
                        new JobData.HangSuspected(
                                "save",
                                T.minusSeconds(300),
                                300,
                                240,
                                "4 x slowest recent save 60 s",
                                "saving",
                                List.of(new JobData.HangSuspect(1, "n1", "1", 17L, "in phase saving")),
                                List.of("GPU 1 of n1: utilisation 0 %, power 61 W"))));
        for (Event e : samples) {
            assertThat(codec.decodeEvent(codec.encodeEvent(e))).isEqualTo(e);
        }
    }
}
