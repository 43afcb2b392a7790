package io.lifeline.domain.job.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointStorageTest {

    private final CheckpointStorage storage = new CheckpointStorage(List.of("/mnt/shared/", " /fsx", ""));
    private final List<String> writers = List.of("n1", "n2");

    private Durability classOf(String uri) {
        return storage.classify(uri, null, List.of(), writers).durability();
    }

    @Test
    void objectStorageSchemesAreDurable() {
        for (String uri : List.of(
                "s3://b/k",
                "gs://b/k",
                "az://c/k",
                "abfs://c@a.dfs.core.windows.net/k",
                "abfss://c@a/k",
                "wasb://c@a/k",
                "wasbs://c@a/k",
                "hdfs://nn:8020/ckpt",
                "S3://B/K",
                "minio://x/y")) {
            assertThat(classOf(uri)).as(uri).isEqualTo(Durability.OBJECT_STORAGE);
        }
    }

    @Test
    void pathsUnderASharedMountAreSharedAndOthersNodeLocal() {
        assertThat(classOf("/mnt/shared/ckpt/step-1")).isEqualTo(Durability.SHARED_FILESYSTEM);
        assertThat(classOf("file:///fsx/ckpt")).isEqualTo(Durability.SHARED_FILESYSTEM);
        assertThat(classOf("/fsx")).isEqualTo(Durability.SHARED_FILESYSTEM);
        assertThat(classOf("/fsxother/ckpt")).isEqualTo(Durability.NODE_LOCAL);
        assertThat(classOf("file:///local_nvme/ckpt")).isEqualTo(Durability.NODE_LOCAL);
        assertThat(classOf("ckpt/step-1")).isEqualTo(Durability.NODE_LOCAL);
        assertThat(classOf(null)).isEqualTo(Durability.UNKNOWN);
        assertThat(CheckpointStorage.defaults()
                        .classify("/mnt/shared/x", null, null, writers)
                        .durability())
                .isEqualTo(Durability.NODE_LOCAL);
    }

    @Test
    void aNodeLocalCheckpointIsOnItsWritersAndLostWithAnyOfThem() {
        CheckpointStorage.Placement p = storage.classify("file:///nvme/c", null, null, writers);
        assertThat(p.holders()).containsExactly("n1", "n2");
        assertThat(p.durability().survivesLossOf("n1", p.holders())).isFalse();
        assertThat(p.durability().survivesLossOf("n2", p.holders())).isFalse();
        assertThat(p.durability().survivesLossOf("n3", p.holders())).isTrue();
        assertThat(p.durability().survivesAnyNode(p.holders())).isFalse();
        assertThat(Durability.NODE_LOCAL.survivesLossOf("n3", List.of()))
                .as("written where, unknown")
                .isFalse();
    }

    @Test
    void replicasOnTwoNodesSurviveTheLossOfEitherAndOneReplicaIsNodeLocalThere() {
        CheckpointStorage.Placement p = storage.classify("/nvme/c", null, List.of("n1", "n7", "n1"), writers);
        assertThat(p.durability()).isEqualTo(Durability.REPLICATED);
        assertThat(p.holders()).containsExactly("n1", "n7");
        assertThat(p.durability().survivesLossOf("n1", p.holders())).isTrue();
        assertThat(p.durability().survivesAnyNode(p.holders())).isTrue();
        CheckpointStorage.Placement one = storage.classify("/nvme/c", null, List.of("n7"), writers);
        assertThat(one.durability()).isEqualTo(Durability.NODE_LOCAL);
        assertThat(one.holders()).containsExactly("n7");
        assertThat(one.durability().survivesLossOf("n1", one.holders())).isTrue();
        assertThat(Durability.OBJECT_STORAGE.survivesLossOf("n1", List.of())).isTrue();
        assertThat(Durability.REPLICATED.wire()).isEqualTo("replicated");
        assertThat(Durability.NODE_LOCAL.wire()).isEqualTo("node-local");
    }
}
