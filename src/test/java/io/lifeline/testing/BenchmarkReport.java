package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects repeated measurements side by side and writes medians (and all runs) to target/benchmarks/. */
public final class BenchmarkReport {

    private final String name;
    private final Map<String, List<Double>> series = new LinkedHashMap<>();

    public BenchmarkReport(String name) {
        this.name = name;
    }

    public void add(String what, double value) {
        series.computeIfAbsent(what, k -> new ArrayList<>()).add(value);
        System.out.printf("[bench] %s run %d: %.0f%n", what, series.get(what).size(), value);
    }

    public static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        s.sort(Double::compare);
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }

    /** Every run of one series, in order. */
    public List<Double> series(String what) {
        return List.copyOf(series.get(what));
    }

    public double median(String what) {
        return median(series.get(what));
    }

    /** Writes a Markdown table: one row per series with its median and every run. */
    public String write(String unit) {
        StringBuilder sb = new StringBuilder("| measurement | median | runs |\n|---|---:|---|\n");
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            sb.append("| ")
                    .append(e.getKey())
                    .append(" | ")
                    .append(String.format("%,.0f", median(e.getValue())))
                    .append(" | ");
            List<String> runs = new ArrayList<>();
            e.getValue().forEach(v -> runs.add(String.format("%,.0f", v)));
            sb.append(String.join(", ", runs)).append(" |\n");
        }
        sb.append("\nUnit: ").append(unit).append('\n');
        try {
            Path dir = Path.of("target", "benchmarks");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".md"), sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println(sb);
        return sb.toString();
    }
}
