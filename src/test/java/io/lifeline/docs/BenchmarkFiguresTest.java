package io.lifeline.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps BENCHMARKS.md and bench/results.json saying the same thing. The convention (stated at the top of
 * BENCHMARKS.md): a table whose last column is headed {@code figure} is a figure table; the last cell of each of its
 * rows names the figures that row states, each as a backticked snake_case name, and the row prints each figure's value
 * as the first number of one of its cells. Every such name is an object in results.json and every object there is
 * named by exactly one row; each object has the required fields, its {@code met} follows from its value and target,
 * and a ratio is the value over its baseline.
 */
class BenchmarkFiguresTest {

    private static final Path DOC = Path.of("BENCHMARKS.md");
    private static final Path RESULTS = Path.of("bench", "results.json");
    private static final List<String> REQUIRED = List.of(
            "name", "value", "unit", "runs", "median", "target", "met", "command", "measured_at", "load_average");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Pattern MARK = Pattern.compile("`([^`]*)`");
    private static final Pattern NUMBER = Pattern.compile("-?\\d[\\d,]*(?:\\.\\d+)?");
    private static final Pattern TARGET = Pattern.compile("(<=|>=|<|>|≤|≥)\\s*(-?[\\d,]+(?:\\.\\d+)?)(\\s.*)?");

    private static Map<String, JsonNode> figures;
    private static Map<String, List<String>> rows;

    @BeforeAll
    static void read() throws IOException {
        figures = new LinkedHashMap<>();
        for (JsonNode f : new ObjectMapper().readTree(RESULTS.toFile())) {
            String name = f.path("name").asText();
            assertThat(figures.put(name, f))
                    .as("figure %s appears once in %s", name, RESULTS)
                    .isNull();
        }
        rows = figureRows(Files.readString(DOC, StandardCharsets.UTF_8));
    }

    @Test
    void everyFigureOfTheFileIsStatedInBenchmarksMd() {
        assertThat(rows.keySet()).as("figures named in %s's figure tables", DOC).containsAll(figures.keySet());
    }

    @Test
    void everyFigureRowOfBenchmarksMdIsInTheFile() {
        assertThat(figures.keySet()).as("figures in %s", RESULTS).containsAll(rows.keySet());
    }

    @Test
    void benchmarksMdPrintsTheValueOfTheFile() {
        List<String> wrong = new ArrayList<>();
        rows.forEach((name, cells) -> {
            JsonNode f = figures.get(name);
            if (f != null && !printsValue(cells, f.path("value"))) {
                wrong.add(name + " = " + f.path("value") + " not printed in | " + String.join(" | ", cells) + " |");
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyFigureHasTheRequiredFields() {
        List<String> wrong = new ArrayList<>();
        figures.forEach((name, f) -> {
            if (!NAME.matcher(name).matches()) {
                wrong.add(name + ": name is not snake_case");
            }
            for (String field : REQUIRED) {
                if (!f.has(field)) {
                    wrong.add(name + ": no " + field);
                }
            }
            if (!f.path("runs").isArray()) {
                wrong.add(name + ": runs is not a list");
            }
            boolean measured = !f.path("value").isNull();
            if (measured
                    && !(f.path("value").isNumber()
                            && f.path("median").isNumber()
                            && f.path("value").asDouble() == f.path("median").asDouble())) {
                wrong.add(name + ": value and median differ or are not numbers");
            }
            if (measured
                    && (f.path("runs").isEmpty()
                            || f.path("command").asText().isBlank()
                            || f.path("measured_at").isNull())) {
                wrong.add(name + ": a measured figure needs its runs, command and measured_at");
            }
            if (measured
                    && !f.path("load_average").isNumber()
                    && !f.path("note").asText().contains("load average")) {
                wrong.add(name + ": load_average is a number, or its note says why there is none");
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void metFollowsFromValueAndTarget() {
        List<String> wrong = new ArrayList<>();
        figures.forEach((name, f) -> {
            JsonNode target = f.path("target");
            JsonNode value = f.path("value");
            JsonNode met = f.path("met");
            if (target.isNull() || value.isNull()) {
                if (!met.isNull()) {
                    wrong.add(name + ": met must be null without a target or a value, is " + met);
                }
                return;
            }
            Matcher m = TARGET.matcher(target.asText().trim());
            if (!target.isTextual() || !m.matches()) {
                wrong.add(name + ": target must read like \">= 50000\" or \"< 100\", is " + target);
                return;
            }
            boolean expected = holds(
                    value.asDouble(), m.group(1), Double.parseDouble(m.group(2).replace(",", "")));
            if (!met.isBoolean() || met.asBoolean() != expected) {
                wrong.add(name + ": met is " + met + " but " + value + " " + target.asText() + " is " + expected);
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void aRatioIsTheValueOverItsBaseline() {
        List<String> wrong = new ArrayList<>();
        figures.forEach((name, f) -> {
            boolean isRatio = "ratio".equals(f.path("unit").asText());
            JsonNode baseline = f.path("baseline");
            if (!f.has("baseline")) {
                if (isRatio || f.has("ratio")) {
                    wrong.add(name + ": a ratio needs a baseline {name, value}");
                }
                return;
            }
            if (!baseline.path("name").isTextual()
                    || !baseline.path("value").isNumber()
                    || !f.path("ratio").isNumber()) {
                wrong.add(name + ": baseline must be {\"name\", \"value\"} with a number, and ratio a number");
                return;
            }
            JsonNode other = figures.get(baseline.path("name").asText());
            if (other != null
                    && other.path("value").asDouble() != baseline.path("value").asDouble()) {
                wrong.add(name + ": baseline " + baseline + " differs from that figure's value " + other.path("value"));
            }
            double ratio = f.path("ratio").asDouble();
            if (isRatio) {
                if (ratio != f.path("value").asDouble()) {
                    wrong.add(name + ": a ratio figure's value is its ratio");
                }
            } else if (Math.abs(ratio
                            - f.path("value").asDouble()
                                    / baseline.path("value").asDouble())
                    > 0.0051 * ratio) {
                wrong.add(name + ": ratio " + ratio + " is not value / baseline");
            }
        });
        assertThat(wrong).isEmpty();
    }

    /** The figure names of every figure table's rows, each with its row's cells; a name may be marked only once. */
    static Map<String, List<String>> figureRows(String markdown) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        boolean inFigureTable = false;
        boolean pastDivider = false;
        for (String line : markdown.split("\\R")) {
            if (!line.startsWith("|")) {
                inFigureTable = false;
                pastDivider = false;
                continue;
            }
            List<String> cells = cells(line);
            if (!inFigureTable && !pastDivider) {
                inFigureTable = "figure".equals(cells.get(cells.size() - 1));
                pastDivider = true;
                continue;
            }
            if (!inFigureTable || cells.stream().allMatch(c -> c.matches(":?-+:?"))) {
                continue;
            }
            Matcher m = MARK.matcher(cells.get(cells.size() - 1));
            while (m.find()) {
                String name = m.group(1);
                if (out.put(name, cells.subList(0, cells.size() - 1)) != null) {
                    throw new AssertionError("figure " + name + " is marked in more than one row of " + DOC);
                }
            }
        }
        return out;
    }

    private static List<String> cells(String line) {
        String body = line.trim();
        body = body.substring(1, body.endsWith("|") ? body.length() - 1 : body.length());
        List<String> cells = new ArrayList<>();
        for (String c : body.split("\\|", -1)) {
            cells.add(c.trim());
        }
        return cells;
    }

    /** Some cell's first number, rounded as printed, is the value ({@code not measured} stands for a null). */
    static boolean printsValue(List<String> cells, JsonNode value) {
        for (String cell : cells) {
            if (value.isNull()) {
                if (cell.contains("not measured")) {
                    return true;
                }
                continue;
            }
            Matcher m = NUMBER.matcher(cell.replace("**", "").replace("−", "-"));
            if (m.find()) {
                BigDecimal printed = new BigDecimal(m.group().replace(",", ""));
                BigDecimal actual =
                        new BigDecimal(value.asText()).setScale(Math.max(0, printed.scale()), RoundingMode.HALF_UP);
                if (printed.compareTo(actual) == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean holds(double value, String op, double bound) {
        return switch (op) {
            case "<" -> value < bound;
            case "<=", "≤" -> value <= bound;
            case ">" -> value > bound;
            case ">=", "≥" -> value >= bound;
            default -> throw new IllegalArgumentException(op);
        };
    }
}
