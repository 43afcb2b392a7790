package io.lifeline.metrics;

import io.lifeline.security.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts a Prometheus or OpenMetrics text scrape down to what a {@link Scope} may see: the series of its jobs (those
 * with a {@code job_namespace} label in scope) and the per-node series ({@code node} label, no job) of the nodes
 * hosting them. Every other series is left out: fleet-wide counts and gauges (jobs and GPUs by state, ingest, the
 * process) are sums over every team's jobs and would tell a scoped caller what other teams run. A family's
 * {@code # HELP} and {@code # TYPE} lines are kept with its first kept sample, and only then.
 */
final class ScopedSeries {

    private ScopedSeries() {}

    static String filter(String scrape, Scope scope, Set<String> nodes) {
        StringBuilder out = new StringBuilder(Math.min(scrape.length(), 1 << 16));
        List<String> metadata = new ArrayList<>();
        String family = null;
        boolean familyShown = false;
        for (String line : scrape.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                if (line.startsWith("# EOF")) {
                    out.append(line).append('\n');
                    continue;
                }
                String name = metadataFamily(line);
                if (!name.equals(family)) {
                    family = name;
                    familyShown = false;
                    metadata.clear();
                }
                metadata.add(line);
                continue;
            }
            if (!keep(line, scope, nodes)) {
                continue;
            }
            if (!familyShown) {
                for (String m : metadata) {
                    out.append(m).append('\n');
                }
                familyShown = true;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** The family a {@code # HELP name ...}, {@code # TYPE name ...} or {@code # UNIT name ...} line is about. */
    private static String metadataFamily(String line) {
        String[] parts = line.split(" ", 4);
        return parts.length >= 3 ? parts[2] : "";
    }

    private static boolean keep(String sample, Scope scope, Set<String> nodes) {
        Map<String, String> labels = labels(sample);
        String ns = labels.get(ModelMetrics.NAMESPACE);
        if (ns != null) {
            return scope.allowsNamespace(ns);
        }
        String job = labels.get(ModelMetrics.JOB);
        if (job != null) {
            return scope.allowsJob(job);
        }
        String node = labels.get("node");
        return node != null && Scope.nodeFilter(nodes).test(node);
    }

    /** The labels of a sample line {@code name{a="x",b="y"} value}; values unescaped. None when unreadable. */
    static Map<String, String> labels(String sample) {
        Map<String, String> out = new HashMap<>();
        int i = sample.indexOf('{');
        int space = sample.indexOf(' ');
        if (i < 0 || (space >= 0 && space < i)) {
            return out;
        }
        i++;
        while (i < sample.length() && sample.charAt(i) != '}') {
            int eq = sample.indexOf('=', i);
            if (eq < 0 || eq + 1 >= sample.length() || sample.charAt(eq + 1) != '"') {
                return Map.of();
            }
            String name = sample.substring(i, eq).trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < sample.length(); j++) {
                char c = sample.charAt(j);
                if (c == '\\' && j + 1 < sample.length()) {
                    char n = sample.charAt(++j);
                    value.append(n == 'n' ? '\n' : n);
                } else if (c == '"') {
                    break;
                } else {
                    value.append(c);
                }
            }
            if (j >= sample.length()) {
                return Map.of();
            }
            out.put(name, value.toString());
            i = j + 1;
            if (i < sample.length() && sample.charAt(i) == ',') {
                i++;
            }
        }
        return out;
    }
}
