package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.EventCodec;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Durability is declared where the storage is named: the trainers say with every completed checkpoint whether their
 * directory outlives a node ({@code durable}) and on which nodes the copies are ({@code replicas}), and the server
 * counts the checkpoint from that, without a list of shared paths; an operator's {@code shared-paths} still overrides.
 * The events go through the codec as the agent sends them.
 */
class DeclaredDurabilityTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final EventCodec codec = new EventCodec();

    private static String completed(String id, long step, String uri, String extra) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + id + "/completed\",\"source\":\"lifeline-agent/ml/llm\","
                + "\"type\":\"trainer.checkpoint.completed\",\"subject\":\"ml/llm\","
                + "\"time\":\"" + JobDriver.DAY + "T10:10:00Z\",\"data\":{\"checkpointId\":\"" + id + "\",\"step\":"
                + step
                + ",\"durationSeconds\":1.5,\"blockingSeconds\":1.5,\"uri\":\"" + uri + "\"" + extra + "}}";
    }

    private JobDriver driver(CheckpointStorage storage) {
        JobDriver d = new JobDriver("ml/llm", JobsConfig.defaults().withCheckpointStorage(storage));
        d.runningOn(2, "10:00:00").progress("10:09:00", 120);
        return d;
    }

    private Event decode(String json) throws Exception {
        return codec.decodeEvent(JSON.readTree(json));
    }

    private static CheckpointView checkpoint(JobDriver d, String id) {
        return d.jobs.checkpoints("ml/llm").orElseThrow().checkpoints().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aLocalPathTheTrainersDeclareDurableCountsWithoutAnyServerSideList() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(completed("step-120", 120, "file:///shared/ckpt/step-120/", ",\"durable\":true")));
        d.now("10:10:09");

        FreshnessView f = d.freshness();
        assertThat(f.checkpointId()).as("%s", f).isEqualTo("step-120");
        assertThat(f.newestNotSurviving()).isFalse();
        assertThat(f.ageMillis()).isEqualTo(9_000);
        assertThat(checkpoint(d, "step-120").durability()).isEqualTo("shared-filesystem");
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n2").orElseThrow().checkpointId())
                .isEqualTo("step-120");
    }

    @Test
    void theSameLocalPathUndeclaredOrDeclaredNodeLocalDoesNotCount() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(completed("step-120", 120, "file:///shared/ckpt/step-120/", "")));
        assertThat(checkpoint(d, "step-120").durability()).isEqualTo("node-local");
        d.apply(decode(completed("step-130", 130, "file:///shared/ckpt/step-130/", ",\"durable\":false")));
        assertThat(checkpoint(d, "step-130").durability()).isEqualTo("node-local");
        assertThat(d.freshness().checkpointId()).isNull();
        assertThat(d.freshness().newestNotSurviving()).isTrue();
    }

    @Test
    void aNodeLocalCheckpointSavedOnEveryNodeIsReplicatedAndSurvivesTheLossOfEither() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(completed(
                "step-120", 120, "file:///nvme/ckpt/step-120/", ",\"durable\":false,\"replicas\":[\"n1\",\"n2\"]")));

        assertThat(checkpoint(d, "step-120").durability()).isEqualTo("replicated");
        assertThat(d.freshness().checkpointId()).isEqualTo("step-120");
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n1").orElseThrow().checkpointId())
                .isEqualTo("step-120");
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n2").orElseThrow().checkpointId())
                .isEqualTo("step-120");
    }

    @Test
    void onceANodeHoldingACopyIsGoneTheCopyLeftIsNodeLocalOnTheOther() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(completed(
                "step-120", 120, "file:///nvme/ckpt/step-120/", ",\"durable\":false,\"replicas\":[\"n1\",\"n2\"]")));
        d.terminated("10:11:00", "n2");

        CheckpointView c = checkpoint(d, "step-120");
        assertThat(c.durability()).isEqualTo("node-local");
        assertThat(c.nodes()).containsExactly("n1");
        assertThat(d.freshness().checkpointId())
                .as("one copy left: the loss of n1 would take it")
                .isNull();
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n3").orElseThrow().checkpointId())
                .isEqualTo("step-120");
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n1").orElseThrow().checkpointId())
                .isNull();
    }

    @Test
    void aNodeLocalCheckpointOnANodeThatIsGoneProtectsNothing() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(
                completed("step-120", 120, "file:///nvme/ckpt/step-120/", ",\"durable\":false,\"replicas\":[\"n2\"]")));
        d.terminated("10:11:00", "n2");
        assertThat(checkpoint(d, "step-120").nodes()).isEmpty();
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n1").orElseThrow().checkpointId())
                .isNull();
    }

    @Test
    void aNodeLocalCheckpointOnOneNodeProtectsAgainstTheLossOfAnotherOnly() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(
                completed("step-120", 120, "file:///nvme/ckpt/step-120/", ",\"durable\":false,\"replicas\":[\"n1\"]")));

        CheckpointView c = checkpoint(d, "step-120");
        assertThat(c.durability()).isEqualTo("node-local");
        assertThat(c.nodes()).containsExactly("n1");
        assertThat(d.freshness().checkpointId()).isNull();
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n2").orElseThrow().checkpointId())
                .isEqualTo("step-120");
        assertThat(d.jobs.freshnessSurviving("ml/llm", "n1").orElseThrow().checkpointId())
                .isNull();
    }

    @Test
    void theOperatorsSharedPathsOverrideWhatTheTrainersDeclared() throws Exception {
        JobDriver d = driver(new CheckpointStorage(List.of("/mnt/shared")));
        d.apply(decode(completed("step-120", 120, "file:///mnt/shared/ckpt/step-120/", ",\"durable\":false")));
        assertThat(checkpoint(d, "step-120").durability()).isEqualTo("shared-filesystem");
        assertThat(d.freshness().checkpointId()).isEqualTo("step-120");
    }

    @Test
    void anObjectStoreIsDurableWhateverTheTrainersSay() throws Exception {
        JobDriver d = driver(CheckpointStorage.defaults());
        d.apply(decode(completed("step-120", 120, "s3://bucket/ckpt/step-120/", ",\"durable\":false")));
        assertThat(checkpoint(d, "step-120").durability()).isEqualTo("object-storage");
    }

    @Test
    void theDeclarationSurvivesTheEventLogsRoundTrip() throws Exception {
        Event e = decode(completed("step-120", 120, "file:///shared/ckpt/", ",\"durable\":true"));
        assertThat(((TrainerData.CheckpointCompleted) e.data()).durable()).isTrue();
        Event again = codec.decodeEvent(codec.encodeEvent(e));
        assertThat(((TrainerData.CheckpointCompleted) again.data()).durable()).isTrue();
        Event silent = decode(completed("step-130", 130, "file:///shared/ckpt/", ""));
        assertThat(((TrainerData.CheckpointCompleted) silent.data()).durable()).isNull();
    }
}
