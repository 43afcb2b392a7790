package io.lifeline.domain.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.GpuData;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** GPU verdicts from dcgm-exporter samples and XIDs. */
class GpuStateTest {

    private static final GpuHealthRules RULES = new GpuHealthRules(XidPolicy.loadDefault(), GpuThresholds.defaults());
    private static final long T0 = Instant.parse("2025-11-03T09:00:00Z").toEpochMilli();
    private static final long NO_LIFE = Long.MIN_VALUE;
    private static final String UUID = "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c";

    private final GpuState gpu = new GpuState(UUID, 3, T0);

    /** Values as the RTX 4000 Ada scrape in fixtures/dcgm reports them (GPU_TEMP 48, POWER_USAGE 40.979). */
    private static GpuData.Sample sample(Double temp, Long dbe, Long remapFailures, Long nvlink, Integer lastXid) {
        return new GpuData.Sample(
                UUID,
                3,
                "NVIDIA RTX 4000 Ada Generation",
                100.0,
                19_250.0,
                961.0,
                temp,
                40.979,
                0L,
                dbe,
                remapFailures,
                nvlink,
                lastXid,
                "cuda-75454ffb9f-8ljq7",
                "default");
    }

    private static GpuData.Sample healthy() {
        return sample(48.0, 0L, 0L, 0L, 0);
    }

    private boolean apply(GpuData.Sample s, long secondsAfterT0) {
        return gpu.applySample(s, T0 + secondsAfterT0 * 1000, s.model(), RULES, NO_LIFE);
    }

    @Test
    void healthySampleKeepsItsValuesAsReported() {
        assertThat(apply(healthy(), 10)).isFalse();
        GpuView v = gpu.view("lke-node", RULES);
        assertThat(v.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(v.reason()).isNull();
        assertThat(v.temperatureCelsius()).isEqualTo(48.0);
        assertThat(v.powerWatts()).isEqualTo(40.979);
        assertThat(v.utilizationPercent()).isEqualTo(100.0);
        assertThat(v.memoryUsedMiB()).isEqualTo(19_250.0);
        assertThat(v.eccDbeVolatile()).isZero();
        assertThat(v.lastXid()).isZero();
        assertThat(v.model()).isEqualTo("NVIDIA RTX 4000 Ada Generation");
        assertThat(v.pod()).isEqualTo("cuda-75454ffb9f-8ljq7");
        assertThat(v.sampledAt()).isEqualTo(Instant.ofEpochMilli(T0 + 10_000));
        assertThat(v.index()).isEqualTo(3);
        assertThat(v.uuid()).isEqualTo(UUID);
    }

    @Test
    void missingValuesMeanNoDataNeverZero() {
        apply(
                new GpuData.Sample(
                        UUID, 3, null, null, null, null, null, null, null, null, null, null, null, null, null),
                10);
        GpuView v = gpu.view("n", RULES);
        assertThat(v.temperatureCelsius()).isNull();
        assertThat(v.utilizationPercent()).isNull();
        assertThat(v.powerWatts()).isNull();
        assertThat(v.eccDbeVolatile()).isNull();
        assertThat(v.rowRemapFailures()).isNull();
        assertThat(v.nvlinkErrors()).isNull();
        assertThat(v.lastXid()).isNull();
        assertThat(v.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu.xids(RULES.policy())).isEmpty();
    }

    @Test
    void missingErrorCounterKeepsItsLastKnownValueAndVerdict() {
        assertThat(apply(sample(48.0, 2L, 0L, 0L, 0), 10)).isTrue();
        assertThat(apply(sample(48.0, null, null, null, null), 20)).isFalse();
        GpuView v = gpu.view("n", RULES);
        assertThat(v.eccDbeVolatile()).isEqualTo(2L);
        assertThat(v.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void eccDoubleBitErrorsFailTheGpuOncePerTransition() {
        apply(healthy(), 0);
        assertThat(apply(sample(48.0, 1L, 0L, 0L, 0), 10)).isTrue();
        assertThat(gpu.reason(RULES)).isEqualTo("1 volatile double-bit ECC error(s)");
        assertThat(apply(sample(48.0, 1L, 0L, 0L, 0), 20)).isFalse();
        assertThat(apply(sample(48.0, 3L, 0L, 0L, 0), 30)).isFalse();
        assertThat(gpu.health()).isEqualTo(GpuHealth.FAILED);
        // volatile counters reset with the GPU: healthy again, and a new failure is a new transition
        assertThat(apply(healthy(), 40)).isFalse();
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(apply(sample(48.0, 1L, 0L, 0L, 0), 50)).isTrue();
    }

    @Test
    void rowRemapFailureFailsTheGpu() {
        assertThat(apply(sample(48.0, 0L, 1L, 0L, 0), 10)).isTrue();
        assertThat(gpu.reason(RULES)).isEqualTo("row remapping failure (1)");
    }

    @Test
    void temperatureThresholdsDegradeThenFail() {
        apply(sample(84.0, 0L, 0L, 0L, 0), 10);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        apply(sample(85.0, 0L, 0L, 0L, 0), 20);
        assertThat(gpu.health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(gpu.reason(RULES)).isEqualTo("temperature 85 °C");
        assertThat(apply(sample(92.0, 0L, 0L, 0L, 0), 30)).isTrue();
        assertThat(gpu.health()).isEqualTo(GpuHealth.FAILED);
        // a missing temperature is no evidence at all
        apply(sample(null, 0L, 0L, 0L, 0), 40);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void nvlinkErrorGrowthDegradesAndACounterResetIsNoGrowth() {
        apply(sample(48.0, 0L, 0L, 1000L, 0), 0);
        apply(sample(48.0, 0L, 0L, 1005L, 0), 60);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        apply(sample(48.0, 0L, 0L, 1100L, 0), 120);
        assertThat(gpu.health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(gpu.reason(RULES)).isEqualTo("NVLink errors growing at 95.0/min");
        apply(sample(48.0, 0L, 0L, 3L, 0), 180);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void exporterLastXidIsAValueNotACount() {
        apply(healthy(), 0);
        assertThat(apply(sample(48.0, 0L, 0L, 0L, 79), 10)).isTrue();
        assertThat(apply(sample(48.0, 0L, 0L, 0L, 79), 20)).isFalse();
        assertThat(apply(sample(48.0, 0L, 0L, 0L, 79), 30)).isFalse();
        assertThat(gpu.xids(RULES.policy())).extracting(XidOccurrence::xid).containsExactly(79);
        assertThat(gpu.reason(RULES)).isEqualTo("XID 79 (GPU has fallen off the bus): REBOOT");
    }

    @Test
    void sameXidAfterTheExporterWentBackToZeroIsANewOccurrence() {
        apply(sample(48.0, 0L, 0L, 0L, 13), 0);
        apply(sample(48.0, 0L, 0L, 0L, 0), 3600);
        apply(sample(48.0, 0L, 0L, 0L, 13), 7200);
        assertThat(gpu.xids(RULES.policy())).extracting(XidOccurrence::xid).containsExactly(13, 13);
        assertThat(gpu.health()).as("XID 13 is an application error").isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void xidEventAndTheExporterValueForTheSameErrorCountOnce() {
        assertThat(gpu.applyXid(79, T0, RULES, NO_LIFE)).isTrue();
        assertThat(apply(sample(48.0, 0L, 0L, 0L, 79), 15)).isFalse();
        assertThat(gpu.xids(RULES.policy())).hasSize(1);
        assertThat(gpu.applyXid(79, T0, RULES, NO_LIFE)).as("duplicate event").isFalse();
        assertThat(gpu.xids(RULES.policy())).hasSize(1);
    }

    @Test
    void applicationXidIsRecordedButLeavesTheGpuHealthy() {
        assertThat(gpu.applyXid(31, T0, RULES, NO_LIFE)).isFalse();
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        XidOccurrence o = gpu.xids(RULES.policy()).get(0);
        assertThat(o.description()).isEqualTo("GPU memory page fault");
        assertThat(o.action()).isEqualTo(XidAction.RESTART_APP);
        assertThat(o.gpuUuid()).isEqualTo(UUID);
        assertThat(o.time()).isEqualTo(Instant.ofEpochMilli(T0));
    }

    @Test
    void fatalXidFailsTheGpuUntilTheNodeStartsANewLife() {
        gpu.applyXid(48, T0, RULES, NO_LIFE);
        apply(healthy(), 60);
        assertThat(gpu.health()).isEqualTo(GpuHealth.FAILED);
        assertThat(gpu.reason(RULES)).isEqualTo("XID 48 (Double Bit ECC Error): RESET_GPU");
        gpu.startNewLife(RULES);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu.xids(RULES.policy())).as("history is kept").hasSize(1);
    }

    @Test
    void xidsFromBeforeTheNodesCurrentLifeAreIgnored() {
        assertThat(gpu.applyXid(79, T0, RULES, T0 + 1)).isFalse();
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu.xids(RULES.policy())).isEmpty();
    }

    @Test
    void unknownXidDegradesTheGpu() {
        gpu.applyXid(4242, T0, RULES, NO_LIFE);
        assertThat(gpu.health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(gpu.reason(RULES)).isEqualTo("XID 4242: NONE");
    }

    @Test
    void xidHistoryKeepsTheNewestEight() {
        for (int i = 1; i <= 10; i++) {
            gpu.applyXid(13, T0 + i * 1000L, RULES, NO_LIFE);
        }
        gpu.applyXid(43, T0, RULES, NO_LIFE); // older than everything kept
        assertThat(gpu.xids(RULES.policy()))
                .hasSize(8)
                .extracting(o -> o.time().toEpochMilli() - T0)
                .containsExactly(3000L, 4000L, 5000L, 6000L, 7000L, 8000L, 9000L, 10_000L);
    }

    @Test
    void olderOrRepeatedSampleIsIgnored() {
        apply(sample(60.0, 0L, 0L, 0L, 0), 20);
        assertThat(apply(sample(95.0, 0L, 0L, 0L, 0), 10)).isFalse();
        assertThat(apply(sample(95.0, 0L, 0L, 0L, 0), 20)).isFalse();
        assertThat(gpu.view("n", RULES).temperatureCelsius()).isEqualTo(60.0);
        assertThat(gpu.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void fatalXidIsTheReasonEvenWhenOtherEvidenceAlsoFails() {
        apply(sample(48.0, 2L, 0L, 0L, 0), 10);
        gpu.applyXid(95, T0 + 20_000, RULES, NO_LIFE);
        assertThat(gpu.reason(RULES)).isEqualTo("XID 95 (Uncontained memory error): RESET_GPU");
    }
}
