package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The free space the trainers read on their storage ({@code freeBytes}, {@code capacityBytes}) on
 * {@code trainer.checkpoint.completed} and {@code trainer.checkpoint.failed}: decoded, encoded back, and refused with
 * a reason when hostile, the rest of the batch kept.
 */
class StorageFieldsCodecTest {

    private final EventCodec codec = new EventCodec();

    private static String event(String id, String type, String data) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"trainer/ml/a\",\"type\":\"" + type
                + "\",\"subject\":\"ml/a\",\"time\":\"2026-12-01T00:00:00Z\",\"data\":" + data + "}";
    }

    private static String completed(String id, String extra) {
        return event(
                id,
                "trainer.checkpoint.completed",
                "{\"checkpointId\":\"s1\",\"step\":1,\"bytes\":1000,\"durationSeconds\":2.0,\"blockingSeconds\":1.0,"
                        + "\"uri\":\"/fsx/a/s1\"" + extra + "}");
    }

    private DecodedBatch batch(String... events) {
        return codec.decodeBody(("[" + String.join(",", events) + "]").getBytes(StandardCharsets.UTF_8), false);
    }

    @Test
    void freeAndCapacityAreDecodedOnBothTypesAndEncodedBack() {
        DecodedBatch b = batch(
                completed("ok-1", ",\"freeBytes\":500000,\"capacityBytes\":1000000"),
                event(
                        "ok-2",
                        "trainer.checkpoint.failed",
                        "{\"checkpointId\":\"s2\",\"step\":2,\"error\":\"no space\",\"reason\":\"no_space\","
                                + "\"freeBytes\":12,\"capacityBytes\":1000000}"),
                completed("ok-3", ""));
        assertThat(b.rejections()).isEmpty();
        TrainerData.CheckpointCompleted c =
                (TrainerData.CheckpointCompleted) b.events().get(0).data();
        assertThat(c.freeBytes()).isEqualTo(500_000L);
        assertThat(c.capacityBytes()).isEqualTo(1_000_000L);
        TrainerData.CheckpointFailed f =
                (TrainerData.CheckpointFailed) b.events().get(1).data();
        assertThat(f.freeBytes()).isEqualTo(12L);
        assertThat(f.capacityBytes()).isEqualTo(1_000_000L);
        TrainerData.CheckpointCompleted none =
                (TrainerData.CheckpointCompleted) b.events().get(2).data();
        assertThat(none.freeBytes()).isNull();
        assertThat(none.capacityBytes()).isNull();
        assertThat(codec.encodeData(c).get("freeBytes").asLong()).isEqualTo(500_000L);
        assertThat(codec.encodeData(f).get("capacityBytes").asLong()).isEqualTo(1_000_000L);
        assertThat(codec.encodeData(none).has("freeBytes")).isFalse();
    }

    @Test
    void hostileValuesAreRefusedWithAReasonAndTheRestOfTheBatchIsKept() {
        DecodedBatch b = batch(
                completed("neg", ",\"freeBytes\":-1"),
                completed("huge", ",\"freeBytes\":99999999999999999999999"),
                completed("text", ",\"freeBytes\":\"lots\""),
                completed("frac", ",\"capacityBytes\":1.5"),
                completed("zero-cap", ",\"capacityBytes\":0"),
                completed("over", ",\"freeBytes\":2000,\"capacityBytes\":1000"),
                completed("past-exbibyte", ",\"capacityBytes\":" + ((1L << 60) + 1)),
                completed("good", ",\"freeBytes\":0,\"capacityBytes\":1000"));
        assertThat(b.events()).singleElement().satisfies(e -> assertThat(e.id()).isEqualTo("good"));
        assertThat(b.rejections()).hasSize(7);
        assertThat(b.rejections().get(0).reason()).contains("freeBytes", "between 0 and");
        assertThat(b.rejections().get(1).reason()).contains("freeBytes");
        assertThat(b.rejections().get(2).reason()).contains("freeBytes", "integer");
        assertThat(b.rejections().get(3).reason()).contains("capacityBytes", "integer");
        assertThat(b.rejections().get(4).reason()).contains("capacityBytes", "between 1 and");
        assertThat(b.rejections().get(5).reason()).contains("freeBytes", "not be more than capacityBytes");
        assertThat(b.rejections().get(6).reason()).contains("capacityBytes");
    }
}
