package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Accounts for every produced event: applied exactly once (stored once in {@code event_log} and {@code event_ids},
 * and found once in the model of each replica), rejected with a reason (a dead letter or an HTTP refusal, and not
 * stored), or neither (lost). Also compares what both replicas answer for the same reads.
 */
final class Checker {

    /** The accounting of one set of produced events. */
    record Accounting(
            long produced,
            long applied,
            long rejected,
            long lost,
            long duplicated,
            long misjudged,
            boolean sameReads,
            List<String> problems) {}

    /** What one replica's model shows: nodes listed, timeline entries per checkpoint id, duplicates the model dropped. */
    private record View(
            Set<String> nodes,
            Map<String, Integer> checkpoints,
            Set<String> jobs,
            long modelDuplicates,
            Map<String, String> reads) {}

    private final Cluster cluster;

    Checker(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Waits up to {@code settle} for every entry to be accounted for, then counts. */
    Accounting account(List<Ledger.Entry> entries, Duration settle) throws Exception {
        long deadline = System.nanoTime() + settle.toNanos();
        Map<String, long[]> stored = Map.of();
        List<View> views = List.of();
        while (true) {
            stored = stored(entries);
            boolean complete = storedComplete(entries, stored) && followed(stored);
            if (complete) {
                views = views(entries);
                complete = viewsComplete(entries, views);
            }
            if (complete || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(1_000);
        }
        if (views.isEmpty()) {
            views = views(entries);
        }
        return count(entries, stored, views);
    }

    /** Whether everything in {@code entries} is stored (or refused) and followed by both replicas now. */
    boolean recovered(List<Ledger.Entry> entries) throws Exception {
        Map<String, long[]> stored = stored(entries);
        return storedComplete(entries, stored) && followed(stored);
    }

    private boolean storedComplete(List<Ledger.Entry> entries, Map<String, long[]> stored) {
        for (Ledger.Entry e : entries) {
            boolean isStored = stored.containsKey(e.id());
            if (e.mustApply() && !isStored && !rejected(e)) {
                return false;
            }
            if (!e.mustApply() && !isStored && !rejected(e)) {
                return false;
            }
        }
        return true;
    }

    private boolean followed(Map<String, long[]> stored) {
        long max = 0;
        for (long[] s : stored.values()) {
            max = Math.max(max, s[1]);
        }
        for (Replica r : cluster.replicas) {
            JsonNode h = r.ingestHealth();
            if (h == null || h.path("logPosition").asLong() < max) {
                return false;
            }
        }
        return true;
    }

    private boolean rejected(Ledger.Entry e) {
        return cluster.ledger.httpRefusal(e.id()) != null
                || !cluster.topics.deadLetters(e.id()).isEmpty();
    }

    /** Per id: {rows in event_log, highest seq, rows in event_ids}. */
    private Map<String, long[]> stored(List<Ledger.Entry> entries) throws Exception {
        Map<String, long[]> out = new HashMap<>();
        String[] sources = entries.stream().map(Ledger.Entry::source).toArray(String[]::new);
        String[] ids = entries.stream().map(Ledger.Entry::id).toArray(String[]::new);
        try (Connection c = cluster.db()) {
            Array s = c.createArrayOf("text", sources);
            Array i = c.createArrayOf("text", ids);
            try (PreparedStatement ps = c.prepareStatement("SELECT k.i, count(l.seq), max(l.seq),"
                    + " (SELECT count(*) FROM event_ids e WHERE e.source = k.s AND e.event_id = k.i)"
                    + " FROM unnest(?::text[], ?::text[]) AS k(s, i) JOIN event_log l ON l.source = k.s AND l.event_id = k.i"
                    + " GROUP BY k.s, k.i")) {
                ps.setArray(1, s);
                ps.setArray(2, i);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)});
                    }
                }
            }
        }
        return out;
    }

    private List<View> views(List<Ledger.Entry> entries) throws Exception {
        Set<String> pools = new TreeSet<>();
        Set<String> jobs = new TreeSet<>();
        for (Ledger.Entry e : entries) {
            if (e.kind() == Ledger.Kind.NODE) {
                pools.add(poolOf(e));
            } else if (e.subject().contains("/") && e.kind() != Ledger.Kind.POISON) {
                jobs.add(e.subject());
            }
        }
        List<View> out = new ArrayList<>();
        for (Replica r : cluster.replicas) {
            out.add(view(r, pools, jobs));
        }
        return out;
    }

    private static String poolOf(Ledger.Entry e) {
        if (e.scenario().equals("setup")) {
            return e.subject().startsWith("faults-drain") ? "faults-drain" : "faults-gpu";
        }
        return e.scenario() + "-pool";
    }

    private View view(Replica r, Set<String> pools, Set<String> jobs) throws Exception {
        Set<String> nodes = new HashSet<>();
        Map<String, Integer> checkpoints = new HashMap<>();
        Set<String> known = new HashSet<>();
        Map<String, String> reads = new HashMap<>();
        long modelDuplicates = 0;
        for (String pool : pools) {
            List<String> items = new ArrayList<>();
            for (int offset = 0; ; offset += 5000) {
                JsonNode page = r.get("/api/v1/nodes?pool=" + pool + "&limit=5000&offset=" + offset, cluster.token);
                if (page == null) {
                    break;
                }
                for (JsonNode n : page.path("items")) {
                    nodes.add(n.path("name").asText());
                    ObjectNode copy = ((ObjectNode) n).deepCopy();
                    // Telemetry reaches only the replica that received it: compare what the stored events decide.
                    copy.remove(List.of("health", "lemonScore"));
                    items.add(copy.toString());
                }
                if (page.path("items").size() < 5000) {
                    break;
                }
            }
            items.sort(null);
            reads.put("nodes?pool=" + pool, String.join("\n", items));
        }
        for (String job : jobs) {
            JsonNode detail = r.get("/api/v1/jobs/" + job, cluster.token);
            if (detail == null) {
                continue;
            }
            known.add(job);
            modelDuplicates += detail.path("duplicatesDropped").asLong();
            JsonNode timeline = r.get("/api/v1/jobs/" + job + "/timeline?limit=1000", cluster.token);
            List<String> entries = new ArrayList<>();
            for (JsonNode t : timeline == null ? List.<JsonNode>of() : timeline.path("entries")) {
                String summary = t.path("summary").asText();
                if ("trainer.checkpoint.completed".equals(t.path("type").asText())
                        && summary.startsWith("checkpoint ")) {
                    String id = summary.substring("checkpoint ".length(), summary.indexOf(' ', "checkpoint ".length()));
                    checkpoints.merge(id, 1, Integer::sum);
                }
                entries.add(t.path("time").asText() + " " + t.path("kind").asText() + " "
                        + t.path("type").asText() + " " + summary);
            }
            entries.sort(null);
            reads.put(job + "/timeline", String.join("\n", entries));
            JsonNode cps = r.get("/api/v1/jobs/" + job + "/checkpoints", cluster.token);
            reads.put(job + "/checkpoints", cps == null ? "" : cps.toString());
        }
        return new View(nodes, checkpoints, known, modelDuplicates, reads);
    }

    private boolean viewsComplete(List<Ledger.Entry> entries, List<View> views) {
        for (Ledger.Entry e : entries) {
            if (!e.mustApply() || rejected(e)) {
                continue;
            }
            for (View v : views) {
                if (!applied(e, v)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean applied(Ledger.Entry e, View v) {
        switch (e.kind()) {
            case NODE:
                return v.nodes().contains(e.subject());
            case CHECKPOINT:
                return v.checkpoints().getOrDefault(e.detail(), 0) > 0;
            default:
                return !e.subject().contains("/") || v.jobs().contains(e.subject());
        }
    }

    private Accounting count(List<Ledger.Entry> entries, Map<String, long[]> stored, List<View> views) {
        long applied = 0;
        long rejected = 0;
        long lost = 0;
        long duplicated = 0;
        long misjudged = 0;
        List<String> problems = new ArrayList<>();
        for (Ledger.Entry e : entries) {
            long[] s = stored.get(e.id());
            boolean isRejected = rejected(e);
            boolean twice = s != null && (s[0] > 1 || s[2] > 1) || s != null && isRejected;
            for (View v : views) {
                twice |= e.kind() == Ledger.Kind.CHECKPOINT && v.checkpoints().getOrDefault(e.detail(), 0) > 1;
            }
            if (twice) {
                duplicated++;
                note(problems, "applied twice: " + e);
            }
            if (e.mustApply()) {
                boolean everywhere = s != null && views.stream().allMatch(v -> applied(e, v));
                if (everywhere) {
                    applied++;
                    if (s[2] != 1) {
                        note(problems, "stored but not in event_ids: " + e);
                    }
                } else if (isRejected) {
                    rejected++;
                    misjudged++;
                    note(problems, "valid event rejected (" + reason(e) + "): " + e);
                } else {
                    lost++;
                    note(problems, (s == null ? "never stored: " : "stored, not applied on every replica: ") + e);
                }
            } else if (s != null) {
                misjudged++;
                applied++;
                note(problems, "invalid event stored: " + e);
            } else if (isRejected) {
                rejected++;
                if (reason(e).isBlank()) {
                    note(problems, "rejected without a reason: " + e);
                    misjudged++;
                }
            } else {
                lost++;
                note(problems, "invalid event neither stored nor rejected: " + e);
            }
        }
        long modelDuplicates = views.stream().mapToLong(View::modelDuplicates).sum();
        if (modelDuplicates > 0) {
            duplicated += modelDuplicates;
            note(problems, modelDuplicates + " event(s) handed to a job's model twice (caught by its own dedupe)");
        }
        boolean same = true;
        if (views.size() == 2) {
            for (Map.Entry<String, String> r : views.get(0).reads().entrySet()) {
                String other = views.get(1).reads().get(r.getKey());
                if (!r.getValue().equals(other)) {
                    same = false;
                    note(
                            problems,
                            "replicas answer " + r.getKey() + " differently: " + firstDifference(r.getValue(), other));
                }
            }
        }
        return new Accounting(entries.size(), applied, rejected, lost, duplicated, misjudged, same, problems);
    }

    /** The first line (or stretch of text) where two answers differ, from each. */
    private static String firstDifference(String a, String b) {
        if (b == null) {
            return "missing on the second replica";
        }
        String[] x = a.split("\n");
        String[] y = b.split("\n");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "(none)";
            String r = i < y.length ? y[i] : "(none)";
            if (!l.equals(r)) {
                int at = 0;
                while (at < Math.min(l.length(), r.length()) && l.charAt(at) == r.charAt(at)) {
                    at++;
                }
                int from = Math.max(0, at - 60);
                return "[" + l.substring(from, Math.min(l.length(), at + 120)) + "] vs ["
                        + r.substring(Math.min(from, r.length()), Math.min(r.length(), at + 120)) + "]";
            }
        }
        return "?";
    }

    private String reason(Ledger.Entry e) {
        String http = cluster.ledger.httpRefusal(e.id());
        if (http != null) {
            return http;
        }
        List<String> dl = cluster.topics.deadLetters(e.id());
        return dl.isEmpty() ? "" : dl.get(0);
    }

    private static void note(List<String> problems, String p) {
        if (problems.size() < 20) {
            problems.add(p);
        } else if (problems.size() == 20) {
            problems.add("...");
        }
    }
}
