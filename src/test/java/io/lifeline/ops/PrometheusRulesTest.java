package io.lifeline.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.RequiredTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The Prometheus rules shipped for teams that alert from Prometheus: the plain rule file holds exactly the groups of
 * the PrometheusRule, {@code promtool check rules} accepts it, and its unit tests pass under
 * {@code promtool test rules} (the goodput burn-rate alerts fire on a fast and a slow burn as they should, and not on
 * a healthy objective). Fails when promtool is missing.
 */
class PrometheusRulesTest {

    private static final Path PROMETHEUS_RULE = Path.of("deploy", "k8s", "base", "prometheusrule.yaml");
    private static final Path RULE_FILE = Path.of("deploy", "prometheus", "lifeline-rules.yaml");
    private static final Path RULE_TESTS = Path.of("deploy", "prometheus", "lifeline-rules.test.yaml");
    private static final List<String> BURN_WINDOWS = List.of("5m", "30m", "1h", "6h");

    @Test
    void plainRuleFileHoldsTheGroupsOfThePrometheusRule() throws IOException {
        Map<String, Object> spec = at(load(PROMETHEUS_RULE), "spec");
        assertThat(load(RULE_FILE).get("groups"))
                .as("%s must have the groups of %s's spec: edit both", RULE_FILE, PROMETHEUS_RULE)
                .isEqualTo(spec.get("groups"));
    }

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        assertThat(promtool("check", "rules", RULE_FILE.toString())).contains("SUCCESS");
    }

    @Test
    void promtoolUnitTestsOfTheRulesPass() throws Exception {
        assertThat(promtool("test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
    }

    @Test
    void burnRatesAreRecordedForEveryWindowOfTheTwoAlertPairs() throws IOException {
        Map<String, Map<String, Object>> rules = rulesByName(load(RULE_FILE));
        for (String w : BURN_WINDOWS) {
            assertThat(rules).containsKeys("lifeline:objective_error_ratio:" + w, "lifeline:objective_burn_rate:" + w);
            assertThat((String) rules.get("lifeline:objective_error_ratio:" + w).get("expr"))
                    .contains(
                            "increase(lifeline_objective_productive_gpu_seconds_total[" + w + "])",
                            "increase(lifeline_objective_held_gpu_seconds_total[" + w + "])");
        }
        assertThat((String) rules.get("lifeline:objective_error_budget_ratio").get("expr"))
                .contains("lifeline_objective_ettr_target_ratio");

        Map<String, Object> fast = rules.get("GoodputBudgetFastBurn");
        assertThat((String) fast.get("expr"))
                .isEqualTo("lifeline:objective_burn_rate:1h > 14.4 and lifeline:objective_burn_rate:5m > 14.4");
        assertThat((Object) at(fast, "labels", "severity")).isEqualTo("critical");
        Map<String, Object> slow = rules.get("GoodputBudgetSlowBurn");
        assertThat((String) slow.get("expr"))
                .isEqualTo("lifeline:objective_burn_rate:6h > 6 and lifeline:objective_burn_rate:30m > 6");
        assertThat((Object) at(slow, "labels", "severity")).isEqualTo("warning");
        for (Map<String, Object> alert : List.of(fast, slow)) {
            assertThat((String) at(alert, "annotations", "summary")).contains("{{ $labels.objective }}", "$value");
            assertThat((String) at(alert, "annotations", "description"))
                    .contains("{{ $labels.objective }}", "Runbook: docs/objectives.md");
        }
    }

    /** Both alerts are tested firing and staying silent, so deleting a case cannot go unnoticed. */
    @Test
    void unitTestsMakeEachBurnAlertFireAndStaySilent() throws IOException {
        Set<String> fired = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        List<Map<String, Object>> tests = at(load(RULE_TESTS), "tests");
        for (Map<String, Object> t : tests) {
            List<Map<String, Object>> cases = at(t, "alert_rule_test");
            for (Map<String, Object> c : cases == null ? List.<Map<String, Object>>of() : cases) {
                List<?> expected = (List<?>) c.get("exp_alerts");
                (expected == null || expected.isEmpty() ? silent : fired).add((String) c.get("alertname"));
            }
        }
        assertThat(fired).contains("GoodputBudgetFastBurn", "GoodputBudgetSlowBurn");
        assertThat(silent).contains("GoodputBudgetFastBurn", "GoodputBudgetSlowBurn");
        assertThat((Object) load(RULE_TESTS).get("rule_files"))
                .isEqualTo(List.of(RULE_FILE.getFileName().toString()));
    }

    private static Map<String, Map<String, Object>> rulesByName(Map<String, Object> file) {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        List<Map<String, Object>> groups = at(file, "groups");
        for (Map<String, Object> g : groups) {
            List<Map<String, Object>> rules = at(g, "rules");
            for (Map<String, Object> r : rules) {
                String name = (String) (r.containsKey("record") ? r.get("record") : r.get("alert"));
                assertThat(out.put(name, r)).as("rule %s defined twice", name).isNull();
            }
        }
        return out;
    }

    private static String promtool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(RequiredTool.PROMTOOL.path());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("%s:%n%s", command, out).isZero();
        return out;
    }

    private static Map<String, Object> load(Path file) throws IOException {
        Object doc = new Yaml(new LoaderOptions()).load(Files.readString(file));
        assertThat(doc).as("%s", file).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) doc;
        return map;
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> doc, String... path) {
        Object o = doc;
        for (String p : path) {
            assertThat(o).as("parent of %s", p).isInstanceOf(Map.class);
            o = ((Map<String, Object>) o).get(p);
        }
        return (T) o;
    }
}
