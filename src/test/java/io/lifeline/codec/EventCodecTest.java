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
        assertThat(e.data())
                .isEqualTo(new NodeData.Registered("spot-a", CapacityType.SPOT, "us-east-1a", "p4d.24xlarge", 8, null));
    }

    /** The log keeps microseconds; the receiving replica must apply the time the others read back from it. */
    @Test
    void aRendezvousOfAJobOf16kGpusIsTakenWhileOtherTypesKeepTheirLimit() {
        // 2,048 nodes of 8 GPUs: over 90,000 characters of participants, past the 64 KiB every other type keeps.
        StringBuilder ps = new StringBuilder();
        for (int n = 0; n < 2048; n++) {
            ps.append(n == 0 ? "" : ",")
                    .append(String.format(
                            java.util.Locale.ROOT,
                            "{\"node\":\"gpu-%05d\",\"firstRank\":%d,\"rankCount\":8}",
                            n,
                            8 * n));
        }
        String data = "{\"round\":1,\"worldSize\":16384,\"participants\":[" + ps + "]}";
        assertThat(data.length()).isGreaterThan(65_536);
        DecodedBatch taken = decode(CloudEvents.event("e1", "s", "trainer.rendezvous", "ns/job", T, data));
        assertThat(taken.rejections()).isEmpty();
        assertThat(((io.lifeline.domain.event.TrainerData.Rendezvous)
                                taken.events().get(0).data())
                        .participants())
                .hasSize(2048);
        String padded = "{\"by\":\"" + "y".repeat(data.length()) + "\"}";
        assertThat(reason(CloudEvents.event("e2", "s", "node.cordoned", "n1", T, padded)))
                .isEqualTo("data: larger than 65536 characters of JSON");
        StringBuilder huge = new StringBuilder(data.substring(0, data.length() - 2));
        for (int n = 2048; huge.length() <= 1024 * 1024; n++) {
            huge.append(String.format(
                    java.util.Locale.ROOT, ",{\"node\":\"gpu-%05d\",\"firstRank\":%d,\"rankCount\":8}", n, 8 * n));
        }
        assertThat(reason(CloudEvents.event("e3", "s", "trainer.rendezvous", "ns/job", T, huge + "]}")))
                .isEqualTo("data: larger than 1048576 characters of JSON");
    }

    @Test
    void timesAreKeptToTheMicrosecondAsTheLogStoresThem() {
        Event e = decode(CloudEvents.nodeRegistered("e1", "n17", Instant.parse("2026-03-01T10:00:00.123456789Z")))
                .events()
                .get(0);
        assertThat(e.time()).isEqualTo(Instant.parse("2026-03-01T10:00:00.123456Z"));
        Event offset = decode(CloudEvents.nodeRegistered("e2", "n17", T)
                        .replace("\"2026-03-01T10:00:00Z\"", "\"2026-03-01T11:00:00.999999999+01:00\""))
                .events()
                .get(0);
        assertThat(offset.time()).isEqualTo(Instant.parse("2026-03-01T10:00:00.999999Z"));
    }

    @Test
    void malformedJsonIsRejectedWithAReason() {
        assertThatThrownBy(() -> decode("{\"specversion\": \"1.0\", "))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("malformed JSON");
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
        assertThat(b.rejections())
                .singleElement()
                .extracting(Refusal::reason)
                .asString()
                .startsWith("type: unknown type 'node.exploded'");
    }

    @Test
    void fieldOfTheWrongTypeNamesTheField() {
        DecodedBatch b = decode(CloudEvents.event(
                "e1",
                "s",
                "node.registered",
                "n1",
                T,
                "{\"pool\":\"p\",\"capacityType\":\"spot\",\"gpuCount\":\"eight\"}"));
        assertThat(b.rejections())
                .singleElement()
                .extracting(Refusal::reason)
                .isEqualTo("data.gpuCount: expected an integer, got string");
    }

    @Test
    void outOfRangeAndUnknownEnumValuesAreRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.event(
                        "a", "s", "gpu.sample", "n1", T, "{\"uuid\":\"GPU-1\",\"index\":0,\"utilizationPercent\":140}"),
                CloudEvents.event("b", "s", "node.interruption_notice", "n1", T, "{\"kind\":\"meteor\"}"))));
        assertThat(b.rejections())
                .extracting(Refusal::reason)
                .containsExactly(
                        "data.utilizationPercent: must be between 0.0 and 100.0, got 140.0",
                        "data.kind: must be one of spot_reclaim, rebalance, maintenance, preempt, got 'meteor'");
    }

    @Test
    void badTimeAndSpecVersionAreRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.nodeRegistered("a", "n1", T).replace(T.toString(), "yesterday"),
                CloudEvents.nodeRegistered("b", "n1", T).replace("\"1.0\"", "\"0.3\""))));
        assertThat(b.rejections())
                .extracting(Refusal::reason)
                .containsExactly(
                        "time: expected an RFC 3339 timestamp with seconds and an offset such as 2026-01-31T12:00:00Z or"
                                + " 2026-01-31T13:00:00.250+01:00, got 'yesterday'",
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
        String body = CloudEvents.nodeRegistered("a", "n1", T) + "\n{not json\n\n"
                + CloudEvents.nodeRegistered("b", "n2", T) + "\r\n";
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
        assertThatThrownBy(() -> decode(deep))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("nesting depth");
    }

    @Test
    void subjectWithPathTraversalOrControlCharactersIsRejected() {
        DecodedBatch b = decode(CloudEvents.array(List.of(
                CloudEvents.nodeRegistered("a", "../../etc/passwd", T),
                CloudEvents.nodeRegistered("b", "n1\\u0000", T))));
        assertThat(b.rejections())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.reason()).startsWith("subject:"));
    }

    private String reason(String event) {
        DecodedBatch b = decode(event);
        assertThat(b.events()).as("rejected").isEmpty();
        return b.rejections().get(0).reason();
    }

    private static String withTime(String time) {
        return CloudEvents.nodeRegistered("e1", "n1", T).replace(T.toString(), time);
    }

    /** Times PostgreSQL refuses (year 0) or that only a broken clock sends: refused before storage, the rule named. */
    @Test
    void timesOutsideTheYears1970To9999AreRejected() {
        String rule = "time: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z, got '";
        assertThat(reason(withTime("0000-01-01T00:00:00Z"))).isEqualTo(rule + "0000-01-01T00:00:00Z'");
        assertThat(reason(withTime("1969-12-31T23:59:59Z"))).isEqualTo(rule + "1969-12-31T23:59:59Z'");
        assertThat(reason(withTime("9999-12-31T23:00:00-05:00"))).isEqualTo(rule + "9999-12-31T23:00:00-05:00'");
        assertThat(decode(withTime("1970-01-01T00:00:00Z")).rejections()).isEmpty();
        assertThat(decode(withTime("2026-03-01t10:00:00.123456789z")).rejections())
                .isEmpty();
    }

    @Test
    void timesThatAreIso8601ButNotRfc3339AreRejected() {
        for (String time : List.of(
                "2026-03-01T10:00Z",
                "2026-03-01T10:00:00+05",
                "2026-03-01T10:00:00",
                "2026-03-01",
                "2026-03-01T10:00:00.1234567891Z",
                "+12026-03-01T10:00:00Z",
                "2026-03-01T10:00:00+0100")) {
            assertThat(reason(withTime(time))).as(time).startsWith("time: expected an RFC 3339 timestamp");
        }
    }

    @Test
    void controlCharactersInEnvelopeStringsAreRejected() {
        assertThat(reason(CloudEvents.nodeRegistered("e\\u0000", "n1", T)))
                .isEqualTo("id: must not contain NUL characters");
        assertThat(reason(CloudEvents.nodeRegistered("e\\n1", "n1", T)))
                .isEqualTo("id: must not contain control characters (U+000A at 1)");
        assertThat(reason(CloudEvents.nodeRegistered("e1", "n1", T).replace("test/k8s", "test/\\u0085")))
                .isEqualTo("source: must not contain control characters (U+0085 at 5)");
        assertThat(reason(CloudEvents.nodeRegistered("e1", "n1", T).replace("node.registered", "node.\\u0000")))
                .isEqualTo("type: must not contain NUL characters");
        assertThat(reason(CloudEvents.nodeRegistered("e1", "n1", T).replace("node.registered", "node.\u00e9")))
                .isEqualTo("type: unknown type 'node.\u00e9' (see docs/events.md for the catalogue)");
        assertThat(reason(CloudEvents.nodeRegistered("e\\ud800", "n1", T)))
                .isEqualTo("id: must not contain a lone surrogate (U+D800 at 1): not valid Unicode");
    }

    @Test
    void dataStringsTheEventLogsJsonbRefusesAreRejected() {
        assertThat(reason(CloudEvents.event("e1", "s", "node.cordoned", "n1", T, "{\"by\":\"a\\u0000\"}")))
                .isEqualTo("data.by: must not contain NUL characters");
        assertThat(reason(CloudEvents.event("e1", "s", "node.cordoned", "n1", T, "{\"by\":\"a\\udc00\"}")))
                .isEqualTo("data.by: must not contain a lone surrogate (U+DC00 at 1): not valid Unicode");
        // Free text keeps its line breaks and tabs.
        assertThat(decode(CloudEvents.event(
                                "e1", "s", "node.cordoned", "n1", T, "{\"by\":\"a\\n\\tb \\ud83d\\ude80\"}"))
                        .rejections())
                .isEmpty();
    }

    @Test
    void sizesAreLimited() {
        assertThat(reason(CloudEvents.nodeRegistered("i".repeat(257), "n1", T)))
                .isEqualTo("id: longer than 256 characters");
        assertThat(decode(CloudEvents.nodeRegistered("i".repeat(256), "n1", T)).rejections())
                .isEmpty();
        assertThat(reason(CloudEvents.nodeRegistered("e1", "n1", T).replace("test/k8s", "s".repeat(1025))))
                .isEqualTo("source: longer than 1024 characters");
        assertThat(reason(CloudEvents.nodeRegistered("e1", "n" + "1".repeat(253), T)))
                .isEqualTo("subject: longer than 253 characters");
        StringBuilder big = new StringBuilder("{\"by\":\"x\"");
        for (int i = 0; i < 20; i++) {
            big.append(",\"unknown")
                    .append(i)
                    .append("\":\"")
                    .append("y".repeat(4000))
                    .append('"');
        }
        assertThat(reason(CloudEvents.event(
                        "e1", "s", "node.cordoned", "n1", T, big.append('}').toString())))
                .isEqualTo("data: larger than 65536 characters of JSON");
        StringBuilder extensions = new StringBuilder(CloudEvents.nodeRegistered("e1", "n1", T));
        extensions.setLength(extensions.length() - 1);
        for (int i = 0; i < 65; i++) {
            extensions.append(",\"ext").append(i).append("\":").append(i);
        }
        assertThat(reason(extensions.append('}').toString()))
                .isEqualTo("extensions: more than 64 extension attributes");
    }

    @Test
    void envelopeAttributesFollowCloudEvents() {
        String e = CloudEvents.nodeRegistered("e1", "n1", T);
        assertThat(reason(e.replace("\"application/json\"", "\"json\"")))
                .startsWith("datacontenttype: must be an RFC 2046");
        assertThat(reason(e.replace("\"application/json\"", "\"text/plain\"")))
                .isEqualTo("datacontenttype: must be application/json, got 'text/plain'");
        assertThat(decode(e.replace("\"application/json\"", "\"application/vnd.lifeline+json; charset=utf-8\""))
                        .rejections())
                .isEmpty();
        assertThat(reason(e.replace("\"id\":", "\"dataschema\":\"relative/path\",\"id\":")))
                .isEqualTo("dataschema: must be an absolute URI, got 'relative/path'");
        assertThat(reason(e.replace("\"id\":", "\"traceparent\":{\"a\":1},\"id\":")))
                .isEqualTo("extension 'traceparent': must be a string, a boolean or an integer, got object");
        assertThat(reason(e.replace("\"id\":", "\"big\":2147483648,\"id\":")))
                .startsWith("extension 'big': a number must be an integer between -2147483648 and 2147483647");
        assertThat(decode(e.replace(
                                "\"id\":",
                                "\"traceparent\":\"00-ab-cd-01\",\"n\":-5,\"ok\":true,\"gone\":null,\"id\":"))
                        .rejections())
                .isEmpty();
    }

    @Test
    void everyTypeRoundTripsThroughEncodeAndDecode() {
        List<Event> samples = List.of(
                new Event(
                        "1",
                        "s",
                        EventType.NODE_INTERRUPTION_NOTICE,
                        "n1",
                        T,
                        new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", T.plusSeconds(120))),
                new Event(
                        "2",
                        "s",
                        EventType.JOB_SUBMITTED,
                        "team-a/llm",
                        T,
                        new JobData.Submitted("team-a", "alice", "high", new ElasticPolicy(4, 8, 8, 3), 8, 1800L)),
                new Event(
                        "3",
                        "s",
                        EventType.TRAINER_RENDEZVOUS,
                        "team-a/llm",
                        T,
                        new TrainerData.Rendezvous(
                                "r1",
                                2,
                                16,
                                List.of(
                                        new TrainerData.Participant("n1", 0, 8),
                                        new TrainerData.Participant("n2", 8, 8)))),
                new Event(
                        "4",
                        "s",
                        EventType.TRAINER_CHECKPOINT_COMPLETED,
                        "team-a/llm",
                        T,
                        new TrainerData.CheckpointCompleted(
                                "ck-9", 48210, 1L << 40, 31.5, 12.25, "s3://b/ck-9", "sha256:ab", 64, true, 64)),
                new Event(
                        "5",
                        "s",
                        EventType.TRAINER_CHECKPOINT_COMPLETED,
                        "team-a/llm",
                        T,
                        new TrainerData.CheckpointCompleted(
                                "ck-10",
                                48300,
                                null,
                                3.0,
                                1.0,
                                "file:///nvme/ck-10",
                                null,
                                16,
                                false,
                                16,
                                List.of("n1", "n2"))));
        for (Event e : samples) {
            Event back = codec.decodeEvent(codec.encodeEvent(e));
            assertThat(back).isEqualTo(e);
        }
    }

    @Test
    void elasticPolicyWithMaxBelowMinIsRejected() {
        DecodedBatch b = decode(CloudEvents.event(
                "e",
                "s",
                "job.submitted",
                "a/b",
                T,
                "{\"namespace\":\"a\",\"gpusPerNode\":8,\"elastic\":{\"minNodes\":4,\"maxNodes\":2,\"procsPerNode\":8,"
                        + "\"maxRestarts\":1}}"));
        assertThat(b.rejections())
                .singleElement()
                .extracting(Refusal::reason)
                .isEqualTo("data.elastic.maxNodes: must be >= minNodes (4), got 2");
    }
}
