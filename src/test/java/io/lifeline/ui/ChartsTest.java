package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chart options' accessibility: theme colours, glyphs beside the heat map's colours, their contrast. */
class ChartsTest {

    private static HeatMapModel oneNode(HeatMapModel.Metric metric, Double... values) {
        return new HeatMapModel(
                metric,
                List.of("n1"),
                List.of(new HeatMapModel.Group("p · z", 0, 1, values.length, 2)),
                values.length,
                Arrays.asList(values));
    }

    @Test
    void degradedAndFailedGpusCarryAGlyphNotOnlyAColour() throws Exception {
        JsonNode o = Charts.JSON.readTree(Charts.heatMap(oneNode(HeatMapModel.Metric.HEALTH, 0.0, 1.0, 2.0)));
        JsonNode data = o.at("/series/0/data");
        assertThat(data.get(0).isArray()).isTrue();
        assertThat(data.get(1).at("/label/formatter").asText()).isEqualTo("!");
        assertThat(data.get(2).at("/label/formatter").asText()).isEqualTo("✕");
        assertThat(o.at("/visualMap/pieces/2/label").asText()).isEqualTo("✕ failed");
    }

    @Test
    void textAndLinesAreThemeColoursResolvedInTheBrowser() throws Exception {
        for (String option :
                List.of(Charts.heatMap(oneNode(HeatMapModel.Metric.UTILISATION, 50.0)), Charts.causes(List.of()))) {
            JsonNode o = Charts.JSON.readTree(option);
            assertThat(o.at("/textStyle/color").asText()).isEqualTo(Charts.TEXT);
            assertThat(o.at("/tooltip/textStyle/color").asText()).isEqualTo(Charts.BODY);
            assertThat(o.at("/tooltip/backgroundColor").asText()).isEqualTo(Charts.BASE);
            JsonNode y = o.get("yAxis").isArray() ? o.get("yAxis").get(0) : o.get("yAxis");
            assertThat(y.at("/axisLabel/color").asText()).isEqualTo(Charts.TEXT);
            assertThat(y.at("/nameTextStyle/color").asText()).isEqualTo(Charts.TEXT);
        }
    }

    @Test
    void glyphsOnHeatMapCellsHaveAtLeastAaContrast() {
        for (int i = 1; i < Charts.HEALTH_COLOURS.size(); i++) {
            assertThat(contrast(Charts.HEALTH_GLYPH_COLOURS.get(i), Charts.HEALTH_COLOURS.get(i)))
                    .as(Charts.HEALTH_WORDS.get(i))
                    .isGreaterThanOrEqualTo(4.5);
        }
    }

    @Test
    void theHealthColoursStayApartForColourBlindReaders() {
        // Simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1, in
        // linear RGB): the three health colours must stay clearly apart for dichromats too, not only in full colour.
        Map<String, double[][]> kinds = Map.of(
                "protanopia",
                        new double[][] {
                            {0.152286, 1.052583, -0.204868},
                            {0.114503, 0.786281, 0.099216},
                            {-0.003882, -0.048116, 1.051998}
                        },
                "deuteranopia",
                        new double[][] {
                            {0.367322, 0.860646, -0.227968},
                            {0.280085, 0.672501, 0.047413},
                            {-0.011820, 0.042940, 0.968881}
                        },
                "tritanopia",
                        new double[][] {
                            {1.255528, -0.076749, -0.178779},
                            {-0.078411, 0.930809, 0.147602},
                            {0.004733, 0.691367, 0.303900}
                        });
        for (var kind : kinds.entrySet()) {
            for (int a = 0; a < 3; a++) {
                for (int b = a + 1; b < 3; b++) {
                    double[] x = simulate(Charts.HEALTH_COLOURS.get(a), kind.getValue());
                    double[] y = simulate(Charts.HEALTH_COLOURS.get(b), kind.getValue());
                    double distance =
                            Math.sqrt(Math.pow(x[0] - y[0], 2) + Math.pow(x[1] - y[1], 2) + Math.pow(x[2] - y[2], 2));
                    assertThat(distance)
                            .as(
                                    "%s: %s against %s",
                                    kind.getKey(), Charts.HEALTH_WORDS.get(a), Charts.HEALTH_WORDS.get(b))
                            .isGreaterThan(0.3);
                }
            }
        }
    }

    /** A colour as a dichromat sees it, in linear RGB. */
    private static double[] simulate(String hex, double[][] m) {
        double[] c = linear(hex);
        double[] out = new double[3];
        for (int r = 0; r < 3; r++) {
            out[r] = Math.max(0, Math.min(1, m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2]));
        }
        return out;
    }

    private static double[] linear(String hex) {
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
            c[i] = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        return c;
    }

    /** The WCAG 2 contrast ratio of two opaque colours. */
    static double contrast(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double luminance(String hex) {
        double[] c = linear(hex);
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    }
}
