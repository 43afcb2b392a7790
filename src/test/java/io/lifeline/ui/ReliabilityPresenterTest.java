package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Reliability page's cells and chart from rows as the core makes them. */
class ReliabilityPresenterTest {

    /** Five interruptions over 480 node-hours: exact 95 % limits 1.6235 and 11.668 events. */
    private static final ReliabilityRow FIVE = new ReliabilityRow(
            "h100-od",
            480,
            5,
            Map.of("not-ready", 4L, "gpu-failure", 1L, "rebalance", 0L),
            5 / 480.0,
            1.6235 / 480,
            11.668 / 480,
            96.0,
            480 / 11.668,
            480 / 1.6235);
    /** None over 240 node-hours: only an upper rate, a lower MTBF. */
    private static final ReliabilityRow NONE = new ReliabilityRow(
            "quiet", 240, 0, Map.of("not-ready", 0L), 0.0, 0.0, 3.689 / 240, null, 240 / 3.689, null);

    @Test
    void cellsHoldTheFigureWithItsInterval() {
        assertThat(ReliabilityPresenter.nodeDays(FIVE.nodeHours())).isEqualTo("20.0");
        assertThat(ReliabilityPresenter.byCause(FIVE.byCause())).isEqualTo("not ready 4, gpu failure 1");
        assertThat(ReliabilityPresenter.mtbfCell(FIVE)).isEqualTo("96.0 h (41.1 h – 295.7 h)");
        assertThat(ReliabilityPresenter.rateCell(FIVE)).isEqualTo("250.0 (81.2 – 583.4)");
        assertThat(ReliabilityPresenter.mtbfCell(NONE)).isEqualTo("no interruption (≥ 65.1 h)");
        assertThat(ReliabilityPresenter.byCause(NONE.byCause())).isEqualTo("none");
        assertThat(ReliabilityPresenter.tail(4.2e-5)).isEqualTo("4.2e-05");
        assertThat(ReliabilityPresenter.tail(1e-20)).isEqualTo("< 1e-12");
    }

    @Test
    void theChartDrawsOnlyGroupsWithAnMtbfAndTheDescriptionNamesEveryGroup() {
        ReliabilityReport r = new ReliabilityReport(
                Instant.parse("2026-11-03T00:00:00Z"),
                Instant.parse("2026-12-02T12:00:00Z"),
                30,
                GroupBy.POOL,
                null,
                0.95,
                List.of(FIVE, NONE),
                List.of());
        assertThat(ReliabilityPresenter.drawn(r)).containsExactly(FIVE);
        String option = ReliabilityPresenter.chart(r);
        assertThat(option)
                .contains("\"data\":[\"h100-od\"]", "[41.1,96.0,96.0,96.0,296.0]", "\"type\":\"log\"")
                .doesNotContain("quiet");
        assertThat(ReliabilityPresenter.describe(r))
                .isEqualTo("MTBF by pool with its 95 % interval, 30 days: "
                        + "h100-od 96.0 h (41.1 h – 295.7 h); quiet: no interruption (≥ 65.1 h).");
    }
}
