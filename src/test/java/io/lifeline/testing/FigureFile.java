package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark's figures as JSON, one object per figure in the shape of {@code bench/results.json} (name, value, unit,
 * runs, median, baseline and ratio for ratios, target, met, command, measured_at, load_average), written to
 * {@code target/benchmarks/<name>.json} and printed.
 */
public final class FigureFile {

    private final String name;
    private final String command;
    private final List<String> figures = new ArrayList<>();
    private final List<Double> loadAverages = new ArrayList<>();

    public FigureFile(String name, String command) {
        this.name = name;
        this.command = command;
    }

    /** Records the machine's load average now (call once per run). */
    public void sampleLoad() {
        loadAverages.add(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** A figure whose target is a floor (null: no target). */
    public void add(String figure, String unit, List<Double> runs, Double atLeast) {
        add(figure, unit, runs, atLeast, null, null);
    }

    /** A ratio of two figures measured side by side, per run, with the baseline it is a share of. */
    public void addRatio(String figure, List<Double> runs, Double atLeast, String baseline, double baselineMedian) {
        add(figure, "ratio", runs, atLeast, baseline, baselineMedian);
    }

    private void add(
            String figure, String unit, List<Double> runs, Double atLeast, String baseline, Double baselineMedian) {
        double median = BenchmarkReport.median(runs);
        List<String> values = new ArrayList<>();
        runs.forEach(v -> values.add(number(v)));
        StringBuilder sb = new StringBuilder("{\"name\":\"")
                .append(figure)
                .append("\",\"value\":")
                .append(number(median))
                .append(",\"unit\":\"")
                .append(unit)
                .append("\",\"runs\":[")
                .append(String.join(",", values))
                .append("],\"median\":")
                .append(number(median));
        if (baseline != null) {
            sb.append(",\"baseline\":{\"name\":\"")
                    .append(baseline)
                    .append("\",\"value\":")
                    .append(number(baselineMedian))
                    .append("},\"ratio\":")
                    .append(number(median));
        }
        sb.append(",\"target\":")
                .append(atLeast == null ? "null" : "{\"at_least\":" + number(atLeast) + "}")
                .append(",\"met\":")
                .append(atLeast == null ? "null" : String.valueOf(median >= atLeast))
                .append(",\"command\":\"")
                .append(command.replace("\"", "\\\""))
                .append("\",\"measured_at\":\"")
                .append(Instant.now())
                .append("\",\"load_average\":[");
        List<String> loads = new ArrayList<>();
        loadAverages.forEach(l -> loads.add(String.format(Locale.ROOT, "%.2f", l)));
        sb.append(String.join(",", loads)).append("]}");
        figures.add(sb.toString());
    }

    private static String number(double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.4f", v);
    }

    public String write() {
        String json = "[\n  " + String.join(",\n  ", figures) + "\n]\n";
        try {
            Path dir = Path.of("target", "benchmarks");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".json"), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println(json);
        return json;
    }
}
