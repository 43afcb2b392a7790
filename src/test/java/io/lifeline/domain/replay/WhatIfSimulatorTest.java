package io.lifeline.domain.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if simulator against hand counts of small scenarios. */
class WhatIfSimulatorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static GoodputView run(List<ReplayInterruption> is, WhatIfScenario s) {
        return WhatIfSimulator.run("ns/j", T0, T0.plusSeconds(36_000), true, 16, 2, is, s, () -> false);
    }

    private static WhatIfScenario scenario(double tau, double c, boolean notice) {
        return new WhatIfScenario(tau, "fixed", c, null, null, notice, null);
    }

    @Test
    void withoutInterruptionsOnlySavesCost() {
        // 10 h, a save of 60 s after every 900 s of training: 36,000 / 960 = 37 full periods and 480 s of training
        GoodputView g = run(List.of(), scenario(900, 60, false));
        assertThat(g.wallMillis()).isEqualTo(36_000_000L);
        assertThat(g.checkpointMillis()).isEqualTo(37 * 60_000L);
        assertThat(g.lostReworkMillis()).isZero();
        assertThat(g.productiveMillis()).isEqualTo(36_000_000L - 37 * 60_000L);
    }

    @Test
    void anInterruptionLosesTheWorkSinceTheLastSaveAndItsRecovery() {
        // stop at 2 h 10 min = 7,800 s; saves end at 960 k: the 8th at 7,680 s, so 120 s are lost; recovery 600 s
        ReplayInterruption i =
                new ReplayInterruption(T0.plusSeconds(7_800), 600_000, IncidentCause.NODE_FAILURE, null, null);
        GoodputView g = run(List.of(i), scenario(900, 60, false));
        assertThat(g.lostReworkMillis()).isEqualTo(120_000);
        assertThat(g.recoveryMillis()).isEqualTo(600_000);
        // after the recovery (at 8,400 s) the save timer starts anew: 27,600 s left = 28 periods and 720 s
        assertThat(g.checkpointMillis()).isEqualTo((8 + 28) * 60_000L);
        assertThat(g.lostGpuHours()).isEqualTo((120 + 600) * 16 / 3600.0);
    }

    @Test
    void theNoticePolicySavesTheWorkWhenTheLeadCoversTheSave() {
        // the same stop, announced 120 s ahead: a save at 7,680 s (the periodic one ends then) ... at the notice (7,680
        // s)
        ReplayInterruption i =
                new ReplayInterruption(T0.plusSeconds(7_800), 600_000, IncidentCause.SPOT_RECLAIM, null, 120_000L);
        GoodputView off = run(List.of(i), scenario(900, 60, false));
        GoodputView on = run(List.of(i), scenario(900, 60, true));
        assertThat(off.lostReworkMillis()).isEqualTo(120_000);
        assertThat(on.lostReworkMillis()).isZero();
        // drained when the notice save completed (7,740 s), back at 8,340 s
        assertThat(on.recoveryMillis()).isEqualTo(600_000);
        assertThat(on.ettr()).isGreaterThan(off.ettr());
        // a lead shorter than the save does not help
        ReplayInterruption shortLead =
                new ReplayInterruption(T0.plusSeconds(7_800), 600_000, IncidentCause.SPOT_RECLAIM, null, 30_000L);
        assertThat(run(List.of(shortLead), scenario(900, 60, true)).lostReworkMillis())
                .isEqualTo(120_000);
    }

    @Test
    void aStopDuringASaveLosesTheWholePeriod() {
        // the 8th save runs 7,620–7,680 s; a stop at 7,650 s loses the 900 s trained before it
        ReplayInterruption i =
                new ReplayInterruption(T0.plusSeconds(7_650), 300_000, IncidentCause.NODE_FAILURE, null, null);
        GoodputView g = run(List.of(i), scenario(900, 60, false));
        assertThat(g.lostReworkMillis()).isEqualTo(900_000);
    }
}
