package io.lifeline.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What one scenario did and found, and its verdict: passed when nothing went wrong. */
final class Outcome {

    private static final ObjectMapper JSON = new ObjectMapper();

    final String scenario;
    final String description;
    Checker.Accounting accounting;
    long stepsTwice;
    Double takeoverSeconds;
    Double leaderSeconds;
    Double recoverySeconds;
    final List<String> failures = new ArrayList<>();
    final Map<String, Object> details = new LinkedHashMap<>();

    Outcome(String scenario, String description) {
        this.scenario = scenario;
        this.description = description;
    }

    void fail(String why) {
        failures.add(why);
    }

    boolean passed() {
        return failures.isEmpty();
    }

    /** Folds the accounting in: anything lost, applied twice or misjudged fails the scenario. */
    void accounted(Checker.Accounting a) {
        accounting = a;
        if (a.lost() > 0) {
            fail(a.lost() + " event(s) lost");
        }
        if (a.duplicated() > 0) {
            fail(a.duplicated() + " event(s) applied twice");
        }
        if (a.misjudged() > 0) {
            fail(a.misjudged() + " event(s) judged wrongly (valid rejected, invalid stored, or no reason)");
        }
        if (!a.sameReads()) {
            fail("the replicas answer the same reads differently");
        }
        if (!a.problems().isEmpty()) {
            details.put("problems", a.problems());
        }
    }

    ObjectNode toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("scenario", scenario);
        o.put("description", description);
        o.put("passed", passed());
        if (accounting != null) {
            o.put("produced", accounting.produced());
            o.put("applied", accounting.applied());
            o.put("rejected", accounting.rejected());
            o.put("lost", accounting.lost());
            o.put("duplicated", accounting.duplicated());
            o.put("sameReads", accounting.sameReads());
        }
        o.put("actionStepsTwice", stepsTwice);
        putSeconds(o, "takeoverSeconds", takeoverSeconds);
        putSeconds(o, "leaderSeconds", leaderSeconds);
        putSeconds(o, "recoverySeconds", recoverySeconds);
        ArrayNode f = o.putArray("failures");
        failures.forEach(f::add);
        o.set("details", JSON.valueToTree(details));
        return o;
    }

    private static void putSeconds(ObjectNode o, String name, Double v) {
        if (v == null) {
            o.putNull(name);
        } else {
            o.put(name, v);
        }
    }

    static String header() {
        return String.format(
                Locale.ROOT,
                "%-24s %9s %9s %8s %5s %5s %6s %9s %9s  %s",
                "scenario",
                "produced",
                "applied",
                "rejected",
                "lost",
                "twice",
                "steps2",
                "takeover",
                "recovery",
                "verdict");
    }

    String row() {
        Checker.Accounting a = accounting;
        return String.format(
                Locale.ROOT,
                "%-24s %9s %9s %8s %5s %5s %6d %9s %9s  %s",
                scenario,
                a == null ? "-" : a.produced(),
                a == null ? "-" : a.applied(),
                a == null ? "-" : a.rejected(),
                a == null ? "-" : a.lost(),
                a == null ? "-" : a.duplicated(),
                stepsTwice,
                secs(takeoverSeconds),
                secs(recoverySeconds),
                passed() ? "PASS" : "FAIL: " + String.join("; ", failures));
    }

    private static String secs(Double s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%.1f s", s);
    }
}
