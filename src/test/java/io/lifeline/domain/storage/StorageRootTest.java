package io.lifeline.domain.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which target a checkpoint location belongs to. */
class StorageRootTest {

    @Test
    void namedRootsWinThenBucketsThenTheFirstPathSegment() {
        StorageRoot r = new StorageRoot(List.of("/mnt/lustre/team-a/", "s3://ckpt/fast"));
        assertThat(r.of("/mnt/lustre/team-a/job/step-1")).isEqualTo("/mnt/lustre/team-a");
        assertThat(r.of("s3://ckpt/fast/job/step-1/")).isEqualTo("s3://ckpt/fast");
        assertThat(r.of("S3://ckpt/slow/job/step-1/")).isEqualTo("s3://ckpt");
        assertThat(r.of("gs://bucket")).isEqualTo("gs://bucket");
        assertThat(r.of("/fsx/llama/step-1")).isEqualTo("/fsx");
        assertThat(r.of("file:///fsx/llama/step-1")).isEqualTo("/fsx");
        assertThat(r.of("/mnt/shared/llama/step-1")).isEqualTo("/mnt/shared");
        assertThat(r.of("/mnt/lustre/team-b/x")).isEqualTo("/mnt/lustre");
        assertThat(r.of("checkpoints/step-1")).isEqualTo("checkpoints");
        assertThat(r.of("  ")).isNull();
        assertThat(r.of(null)).isNull();
    }
}
