package io.lifeline.domain.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gain of the notice policy on a job's history, against hand counts. */
class CounterfactualTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final WhatIfLimits LIMITS = new WhatIfLimits(24, 2_000_000, 60);

    /**
     * A 10-hour job on 16 GPUs saving 60 s after every 900 s of training, reclaimed at 8,500 s with 120 s of notice,
     * back 600 s after it stops. Saves end every 960 s: the 8th at 7,680 s.
     *
     * <p>Without the policy: the 820 s trained since then are lost, back at 9,100 s; 26,900 s left hold 28 saves, so
     * 7,200 + 25,220 = 32,420 s productive. With it: a save at the notice (8,380–8,440 s) keeps the 700 s trained
     * since 7,680 s, the job is drained then and back at 9,040 s; 26,960 s left hold 28 saves, so 7,200 + 700 +
     * 25,280 = 33,180 s productive. The policy kept 760 s: the 820 s of rework less its one 60-s save.
     */
    private static WhatIfJob job(Long noticeMillis, long actualProductiveSeconds, long actualWaitingSeconds) {
        ReplayInterruption reclaim = new ReplayInterruption(
                T0.plusSeconds(8_500), 600_000, IncidentCause.SPOT_RECLAIM, "spot", noticeMillis);
        long[] ms = new long[Bucket.values().length];
        ms[Bucket.PRODUCTIVE.ordinal()] = actualProductiveSeconds * 1000;
        ms[Bucket.WAITING.ordinal()] = actualWaitingSeconds * 1000;
        ms[Bucket.CHECKPOINT.ordinal()] = (36_000 - actualProductiveSeconds - actualWaitingSeconds) * 1000;
        GoodputView actual = GoodputView.of(ms, new long[Bucket.values().length]);
        return new WhatIfJob(
                "team/llm",
                T0,
                T0.plusSeconds(36_000),
                16,
                2,
                "spot",
                CapacityType.SPOT,
                900.0,
                60.0,
                600,
                null,
                List.of(reclaim),
                actual);
    }

    @Test
    void theReplaysFindTheWorkTheNoticeSaveKeptLessItsCost() {
        JobCounterfactual c = Counterfactual.of(job(120_000L, 33_180, 0), true, LIMITS, () -> false);
        assertThat(c.noticed()).isEqualTo(1);
        assertThat(c.skipped()).isNull();
        assertThat(c.keptMillis()).isEqualTo(760_000);
        assertThat(c.keptGpuHours()).isCloseTo(760 * 16 / 3600.0, offset(1e-9));
        assertThat(c.replayEttrWith()).isCloseTo(33_180 / 36_000.0, offset(1e-9));
        assertThat(c.replayEttrWithout()).isCloseTo(32_420 / 36_000.0, offset(1e-9));
    }

    @Test
    void theFleetTakesTheKeptWorkOffTheMeasuredEttr() {
        // The ledger measured 33,000 s productive of 36,000 s held (what the replay does not model shows here).
        JobCounterfactual noticed = Counterfactual.of(job(120_000L, 33_000, 0), true, LIMITS, () -> false);
        // A second job never had a notice: nothing replayed, counted as measured.
        JobCounterfactual quiet = Counterfactual.of(job(null, 34_000, 1_000), true, LIMITS, () -> false);
        assertThat(quiet.replayed()).isFalse();
        assertThat(quiet.keptMillis()).isZero();

        FleetCounterfactual f = Counterfactual.fleet(List.of(noticed, quiet), T0, (ns, pool) -> true, "on");
        assertThat(f.jobs()).isEqualTo(2);
        assertThat(f.jobsNoticed()).isEqualTo(1);
        assertThat(f.jobsActed()).isEqualTo(1);
        // held: 36,000 + 35,000 s; productive 67,000 s with the policy, 760 s less without
        assertThat(f.ettrWith()).isCloseTo(67_000 / 71_000.0, offset(1e-12));
        assertThat(f.ettrWithout()).isCloseTo(66_240 / 71_000.0, offset(1e-12));
        assertThat(f.keptHours()).isCloseTo(760 / 3600.0, offset(1e-12));
        assertThat(f.keptGpuHours()).isCloseTo(760 * 16 / 3600.0, offset(1e-12));
        assertThat(f.perJob()).extracting(JobCounterfactual::job).containsExactly("team/llm");
    }

    @Test
    void neverTakesOffMoreThanTheLedgerMeasured() {
        // Early in a run the ledger may have counted less productive time than the replay finds kept.
        JobCounterfactual early = Counterfactual.of(job(120_000L, 500, 0), true, LIMITS, () -> false);
        assertThat(early.keptMillis()).isEqualTo(760_000);
        FleetCounterfactual f = Counterfactual.fleet(List.of(early), T0, (ns, pool) -> true, "on");
        assertThat(f.ettrWithout()).isZero();
        assertThat(f.keptHours()).isCloseTo(500 / 3600.0, offset(1e-12));
        assertThat(f.keptGpuHours()).isCloseTo(500 * 16 / 3600.0, offset(1e-12));
    }

    @Test
    void aPolicyThatDidNotActGainedNothing() {
        JobCounterfactual noticed = Counterfactual.of(job(120_000L, 33_000, 0), true, LIMITS, () -> false);
        FleetCounterfactual f = Counterfactual.fleet(List.of(noticed), T0, (ns, pool) -> false, "dry-run");
        assertThat(f.ettrWithout()).isEqualTo(f.ettrWith());
        assertThat(f.keptGpuHours()).isZero();
        assertThat(f.jobsActed()).isZero();
        assertThat(f.noticePolicyMode()).isEqualTo("dry-run");
        assertThat(f.notes()).anyMatch(n -> n.contains("did not act"));
    }

    @Test
    void aNoticeShorterThanTheSaveChangesNothing() {
        JobCounterfactual c = Counterfactual.of(job(30_000L, 33_000, 0), true, LIMITS, () -> false);
        assertThat(c.replayed()).isTrue();
        assertThat(c.keptMillis()).isZero();
    }

    @Test
    void aJobWithoutAKnownIntervalIsNotReplayedAndSaysWhy() {
        WhatIfJob j = job(120_000L, 33_000, 0);
        WhatIfJob unknown = new WhatIfJob(
                j.job(),
                j.start(),
                j.end(),
                j.gpus(),
                j.nodes(),
                j.pool(),
                j.capacity(),
                null,
                null,
                0,
                null,
                j.interruptions(),
                j.actual());
        JobCounterfactual c = Counterfactual.of(unknown, true, LIMITS, () -> false);
        assertThat(c.replayed()).isFalse();
        assertThat(c.skipped()).contains("interval");
        assertThat(c.costAssumed()).isTrue();
        FleetCounterfactual f = Counterfactual.fleet(List.of(c), T0, (ns, pool) -> true, "on");
        assertThat(f.ettrWithout()).isEqualTo(f.ettrWith());
        assertThat(f.notes()).anyMatch(n -> n.contains("could not be replayed"));
    }
}
