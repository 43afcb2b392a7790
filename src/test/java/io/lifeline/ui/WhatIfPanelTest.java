package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.domain.replay.WhatIfReport;
import io.lifeline.domain.replay.WhatIfRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if panel's chart option and text, without a browser. */
class WhatIfPanelTest {

    private static WhatIfRow row(String name, boolean actual, Double tau, String source, Boolean notice, double ettr) {
        return new WhatIfRow(
                name,
                actual,
                tau,
                source,
                120.0,
                notice,
                "spot",
                4,
                ettr,
                ettr - 0.01,
                ettr + 0.001,
                10,
                1,
                2,
                0.5,
                320,
                null,
                null);
    }

    private static WhatIfReport report(Double current, Double advised, boolean withNoticeOn) {
        List<WhatIfRow> rows = new ArrayList<>();
        rows.add(row("actual", true, current, null, null, 0.9));
        // Given out of order: the chart draws each line by interval.
        for (double tau : new double[] {1800, 300, 900}) {
            rows.add(row("τ " + tau, false, tau, "fixed", false, 0.8 + tau / 100_000));
            if (withNoticeOn) {
                rows.add(row("τ " + tau + " notice policy on", false, tau, "fixed", true, 0.85 + tau / 100_000));
            }
        }
        rows.add(row("advice", false, advised, "advice", false, 0.83));
        // A row without an ETTR (a replay that had nothing to measure) is left out of the lines.
        rows.add(new WhatIfRow(
                "empty", false, 600.0, "fixed", 60.0, false, "spot", 0, null, null, null, 0, 0, 0, 0, 0, null, null));
        return new WhatIfReport(
                "ml/llm",
                Instant.EPOCH,
                Instant.EPOCH.plusSeconds(86_400),
                128,
                16,
                "a100-spot",
                20_000.0,
                current,
                advised,
                rows,
                List.of(),
                12);
    }

    @Test
    void twoLinesByIntervalWithTheCurrentAndAdvisedIntervalsMarked() throws Exception {
        JsonNode o = Charts.JSON.readTree(WhatIfPanel.option(report(1800.0, 1234.4, true)));
        JsonNode series = o.get("series");
        assertThat(series).hasSize(2);
        assertThat(series.get(0).get("name").asText()).isEqualTo("notice policy off");
        assertThat(series.get(1).get("name").asText()).isEqualTo("notice policy on");
        List<Double> xs = new ArrayList<>();
        series.get(0).get("data").forEach(p -> xs.add(p.get(0).asDouble()));
        assertThat(xs).containsExactly(300.0, 900.0, 1234.0, 1800.0);
        assertThat(series.get(1).get("data")).hasSize(3);
        assertThat(series.get(1).get("data").get(0).get(1).asDouble()).isEqualTo(0.853);
        // Told apart without colour
        assertThat(series.get(0).get("lineStyle").get("type").asText())
                .isNotEqualTo(series.get(1).get("lineStyle").get("type").asText());
        assertThat(series.get(0).get("symbol").asText())
                .isNotEqualTo(series.get(1).get("symbol").asText());
        JsonNode marks = series.get(0).get("markLine").get("data");
        assertThat(marks).hasSize(2);
        assertThat(marks.get(0).get("name").asText()).isEqualTo("current");
        assertThat(marks.get(0).get("xAxis").asLong()).isEqualTo(1800);
        assertThat(marks.get(1).get("name").asText()).isEqualTo("advised");
        assertThat(marks.get(1).get("xAxis").asLong()).isEqualTo(1234);
        assertThat(series.get(1).has("markLine")).isFalse();
        // Labels follow the theme
        assertThat(o.get("xAxis").get("axisLabel").get("color").asText()).startsWith("--lumo-");
        assertThat(marks.get(1).get("label").get("color").asText()).startsWith("--lumo-");
    }

    @Test
    void oneSettingOneLineAndUnknownIntervalsAreNotMarked() throws Exception {
        JsonNode o = Charts.JSON.readTree(WhatIfPanel.option(report(null, null, false)));
        assertThat(o.get("series")).hasSize(1);
        assertThat(o.get("series").get(0).get("name").asText()).isEqualTo("notice policy off");
        assertThat(o.get("series").get(0).get("markLine").get("data")).isEmpty();
    }

    @Test
    void theChartIsDescribedInWords() {
        String d = WhatIfPanel.describe(report(1800.0, 1234.4, true));
        assertThat(d)
                .contains("notice policy off: 5 min 80.3 %")
                .contains("notice policy on:")
                .contains("current interval 30 min")
                .contains("advised");
        assertThat(WhatIfPanel.summary(report(1800.0, 1234.4, true))).startsWith("8 scenarios replayed");
    }

    @Test
    void intervalsAreParsedOrRefused() {
        assertThat(WhatIfPanel.intervals("300, 900 1800;3600")).containsExactly(300.0, 900.0, 1800.0, 3600.0);
        assertThat(WhatIfPanel.intervals("")).isEmpty();
        assertThat(WhatIfPanel.intervals("300, ten")).isNull();
        assertThat(WhatIfPanel.intervals("-5")).isNull();
        assertThat(WhatIfPanel.intervals("0")).isNull();
        assertThat(WhatIfPanel.intervals("NaN")).isNull();
        assertThat(WhatIfPanel.intervals("Infinity")).isNull();
    }
}
