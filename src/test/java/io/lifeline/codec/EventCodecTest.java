package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.CloudEvents;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventCodecTest {

    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
    private final EventCodec codec = new EventCodec();

    private DecodedBatch decode(String body) {
        return codec.decodeBody(body.getBytes(StandardCharsets.UTF_8), false);
    }

    @Test
    void decodesAStructuredEventWithTypedData() {
        DecodedBatch b = decode(CloudEvents.nodeRegistered("e1", "n17", T));
        assertThat(b.rejections()).isEmpty();
        Event e = b.events().get(0);
        assertThat(e.type()).isEqualTo(EventType.NODE_REGISTERED);
        assertThat(e.subject()).isEqualTo("n17");
        assertThat(e.time()).isEqualTo(T);
        assertThat(e.data()).isEqualTo(new NodeData.Registered("spot-a", CapacityType.SPOT, "us-east-1a", "p4d.24xlarge", 8,
                null));
    }

    @Test
    void malformedJsonIsRejectedWithAReason() {
        assertThatThrownBy(() -> decode("{\"specversion\": \"1.0\", "))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("malformed JSON");
    }

    @Test
    void missingRequiredAttributeNamesTheAttribute() {
        String noSource = CloudEvents.nodeRegistered("e1", "n1", T).replace("\"source\":\"test/k8s\",", "");
        DecodedBatch b = decode(noSource);
        assertThat(b.events()).isEmpty();
        assertThat(b.rejections()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo("source: required");
            assertThat(r.id()).isEqualTo("e1");
        });
    }

    @Test
    void unknownTypeIsRejected() {
        DecodedBatch b = decode(CloudEvents.event("e1", "s", "node.exploded", "n1", T, "{}"));
        assertThat(b.rejections()).singleElement().extracting(Rejection::reason).asString()
                .startsWith("type: unknown type 'node.exploded'");
    }

    @Test
    void fieldOfTheWrongTypeNamesTheField() {
        DecodedBatch b = decode(CloudEvents.event("e1", "s", "node.registered", "n1", T,
                "{\"pool\":\"p\",\"capacityType\":\"spot\",\"gpuCount\":\"eight\"}"));
        assertThat(b.rejections()).singleElement().extracting(Rejection::reason)
                .isEqualTo("data.gpuCount: expected an integer, got string");
    }

    @Test
    void outOfRangeAndUnknownEnumValuesAreRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.event("a", "s", "gpu.sample", "n1", T, "{\"uuid\":\"GPU-1\",\"index\":0,\"utilizationPercent\":140}"),
                CloudEvents.event("b", "s", "node.interruption_notice", "n1", T, "{\"kind\":\"meteor\"}"))));
        assertThat(b.rejections()).extracting(Rejection::reason).containsExactly(
                "data.utilizationPercent: must be between 0.0 and 100.0, got 140.0",
                "data.kind: must be one of spot_reclaim, rebalance, maintenance, preempt, got 'meteor'");
    }

    @Test
    void badTimeAndSpecVersionAreRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.nodeRegistered("a", "n1", T).replace(T.toString(), "yesterday"),
                CloudEvents.nodeRegistered("b", "n1", T).replace("\"1.0\"", "\"0.3\""))));
        assertThat(b.rejections()).extracting(Rejection::reason).containsExactly(
                "time: expected an RFC 3339 timestamp such as 2026-01-31T12:00:00Z, got 'yesterday'",
                "specversion: only \"1.0\" is supported, got '0.3'");
    }

    @Test
    void aBatchKeepsEveryGoodEventAndReportsTheBadOneByIndex() {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            events.add(CloudEvents.gpuSample("s" + i, "n1", T.plusSeconds(i), 50));
        }
        events.set(417, "{\"specversion\":\"1.0\",\"id\":\"bad\"}");
        DecodedBatch b = decode(CloudEvents.array(events));
        assertThat(b.events()).hasSize(999);
        assertThat(b.rejections()).singleElement().satisfies(r -> {
            assertThat(r.index()).isEqualTo(417);
            assertThat(r.id()).isEqualTo("bad");
        });
        assertThat(b.positions()).doesNotContain(417).hasSize(999);
    }

    @Test
    void ndjsonRejectsABadLineAndKeepsTheOthers() {
        String body = CloudEvents.nodeRegistered("a", "n1", T) + "\n{not json\n\n" + CloudEvents.nodeRegistered("b", "n2", T)
                + "\r\n";
        DecodedBatch b = codec.decodeBody(body.getBytes(StandardCharsets.UTF_8), true);
        assertThat(b.events()).extracting(Event::id).containsExactly("a", "b");
        assertThat(b.positions()).containsExactly(0, 2);
        assertThat(b.rejections()).singleElement().satisfies(r -> {
            assertThat(r.index()).isEqualTo(1);
            assertThat(r.reason()).startsWith("line 2: malformed JSON");
        });
    }

    @Test
    void deeplyNestedJsonIsRefused() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        assertThatThrownBy(() -> decode(deep)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("nesting depth");
    }

    @Test
    void subjectWithPathTraversalOrControlCharactersIsRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.nodeRegistered("a", "../../etc/passwd", T),
                CloudEvents.nodeRegistered("b", "n1\\u0000", T))));
        assertThat(b.rejections()).hasSize(2).allSatisfy(r -> assertThat(r.reason()).startsWith("subject:"));
    }

    @Test
    void everyTypeRoundTripsThroughEncodeAndDecode() {
        List<Event> samples = List.of(
                new Event("1", "s", EventType.NODE_INTERRUPTION_NOTICE, "n1", T,
                        new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", T.plusSeconds(120))),
                new Event("2", "s", EventType.JOB_SUBMITTED, "team-a/llm", T,
                        new JobData.Submitted("team-a", "alice", "high", new ElasticPolicy(4, 8, 8, 3), 8, 1800L)),
                new Event("3", "s", EventType.TRAINER_RENDEZVOUS, "team-a/llm", T, new TrainerData.Rendezvous("r1", 2, 16,
                        List.of(new TrainerData.Participant("n1", 0, 8), new TrainerData.Participant("n2", 8, 8)))),
                new Event("4", "s", EventType.TRAINER_CHECKPOINT_COMPLETED, "team-a/llm", T,
                        new TrainerData.CheckpointCompleted("ck-9", 48210, 1L << 40, 31.5, 12.25, "s3://b/ck-9", "sha256:ab",
                                64, true, 64)));
        for (Event e : samples) {
            Event back = codec.decodeEvent(codec.encodeEvent(e));
            assertThat(back).isEqualTo(e);
        }
    }

    @Test
    void elasticPolicyWithMaxBelowMinIsRejected() {
        DecodedBatch b = decode(CloudEvents.event("e", "s", "job.submitted", "a/b", T,
                "{\"namespace\":\"a\",\"gpusPerNode\":8,\"elastic\":{\"minNodes\":4,\"maxNodes\":2,\"procsPerNode\":8,"
                        + "\"maxRestarts\":1}}"));
        assertThat(b.rejections()).singleElement().extracting(Rejection::reason)
                .isEqualTo("data.elastic.maxNodes: must be >= minNodes (4), got 2");
    }
}
