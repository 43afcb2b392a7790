package io.lifeline.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bad input under load: floods of duplicates (the same events again, over both transports, also once they have left
 * the in-memory dedupe window), events out of order and late ones; and poison records, which must be dead-lettered
 * (Kafka) or refused (HTTP) with a reason while the events around them go on being applied.
 */
final class InputScenarios {

    private static final String POISON_SOURCE = "faults/poison";

    private final Scenarios s;
    private final Cluster cluster;

    InputScenarios(Scenarios s) {
        this.s = s;
        this.cluster = s.cluster;
    }

    Outcome duplicatesLateOutOfOrder() throws InterruptedException {
        return s.run(
                "duplicates-late-ooo",
                "every event of the scenario sent 3 more times (Kafka and HTTP, crossed), a "
                        + "job's checkpoints in reverse time order, events 2 hours and 2 days late",
                (o, w, m) -> {
                    String sc = w.scenario();
                    Instant now = Instant.now();
                    String ooo = Workload.NAMESPACE + "/" + sc + "-ooo-0";
                    send(
                            sc,
                            sc + "-ooosub",
                            ooo,
                            Ledger.Kind.OTHER,
                            null,
                            Events.jobSubmitted(sc + "-ooosub", ooo, now.minusSeconds(3600)));
                    for (int k = 0; k < 50; k++) {
                        String cp = sc + "-ooo-cp-" + k;
                        send(
                                sc,
                                cp,
                                ooo,
                                Ledger.Kind.CHECKPOINT,
                                cp,
                                Events.checkpointCompleted(cp, ooo, cp, 1000 - 10L * k, now.minusSeconds(k)));
                    }
                    String late = Workload.NAMESPACE + "/" + sc + "-late-0";
                    send(
                            sc,
                            sc + "-latesub",
                            late,
                            Ledger.Kind.OTHER,
                            null,
                            Events.jobSubmitted(
                                    sc + "-latesub",
                                    late,
                                    now.minus(Duration.ofDays(2)).minusSeconds(60)));
                    for (int k = 0; k < 30; k++) {
                        String cp = sc + "-late-cp-" + k;
                        Instant at = k < 15
                                ? now.minus(Duration.ofDays(2)).plusSeconds(k)
                                : now.minus(Duration.ofHours(2)).plusSeconds(k);
                        send(
                                sc,
                                cp,
                                late,
                                Ledger.Kind.CHECKPOINT,
                                cp,
                                Events.checkpointCompleted(cp, late, cp, 10L * (k + 1), at));
                    }
                    for (int k = 0; k < 10; k++) {
                        String node = sc + "-latenode-" + k;
                        String id = sc + "-latereg-" + k;
                        send(
                                sc,
                                id,
                                node,
                                Ledger.Kind.NODE,
                                null,
                                Events.nodeRegistered(id, node, w.pool(), now.minus(Duration.ofDays(2))));
                    }
                    cluster.load.flush(Duration.ofSeconds(60));
                    Waits.sleep(Duration.ofSeconds(5));
                    List<Workload.Pending> all = w.generated();
                    long resent = 0;
                    for (int round = 0; round < 3; round++) {
                        for (Workload.Pending p : all) {
                            Ledger.Entry e = p.entry();
                            String via = round == 1 ? ("http".equals(e.via()) ? "kafka" : "http") : e.via();
                            cluster.load.send(new Workload.Pending(
                                    p.json(),
                                    p.key(),
                                    new Ledger.Entry(
                                            e.scenario(), e.id(), e.source(), e.kind(), e.subject(), e.detail(), via)));
                            resent++;
                        }
                    }
                    o.details.put("resent", resent);
                    cluster.load.flush(Duration.ofSeconds(120));
                    m.end(cluster.ledger.of(sc));
                });
    }

    Outcome jobThroughBothReplicas() throws InterruptedException {
        return s.run(
                "job-via-both-replicas",
                "one job's 600 checkpoints sent alternately over Kafka and over HTTP through "
                        + "the front address (so stored by either replica): both replicas must list the same checkpoints and the same "
                        + "timeline (with its seq, the cursor), also beyond the 500 entries memory holds",
                (o, w, m) -> {
                    String sc = w.scenario();
                    String job = Workload.NAMESPACE + "/" + sc + "-both-0";
                    Instant now = Instant.now();
                    send(
                            sc,
                            sc + "-bothsub",
                            job,
                            Ledger.Kind.OTHER,
                            null,
                            Events.jobSubmitted(sc + "-bothsub", job, now.minusSeconds(700)));
                    cluster.load.flush(Duration.ofSeconds(30));
                    for (int k = 0; k < 600; k++) {
                        String cp = sc + "-both-cp-" + k;
                        String json = Events.checkpointCompleted(cp, job, cp, 10L * (k + 1), now.minusSeconds(600 - k));
                        cluster.load.send(new Workload.Pending(
                                json,
                                job,
                                new Ledger.Entry(
                                        sc,
                                        cp,
                                        "trainer/" + job,
                                        Ledger.Kind.CHECKPOINT,
                                        job,
                                        cp,
                                        k % 2 == 0 ? "kafka" : "http")));
                        if (k % 50 == 49) {
                            Waits.sleep(Duration.ofMillis(200));
                        }
                    }
                    cluster.load.flush(Duration.ofSeconds(60));
                    m.end(cluster.ledger.of(sc));
                    Waits.sleep(Duration.ofSeconds(10));
                    List<String> first = timeline(cluster.replica(0), job);
                    List<String> second = timeline(cluster.replica(1), job);
                    o.details.put("timelineEntries", List.of(first.size(), second.size()));
                    if (!first.equals(second)) {
                        int at = 0;
                        while (at < Math.min(first.size(), second.size())
                                && first.get(at).equals(second.get(at))) {
                            at++;
                        }
                        o.fail(
                                "the replicas page through the job's timeline differently (seq and order), first at entry "
                                        + at + ": " + (at < first.size() ? first.get(at) : "-") + " vs "
                                        + (at < second.size() ? second.get(at) : "-"));
                    }
                    for (List<String> t : List.of(first, second)) {
                        long distinct = t.stream()
                                .map(x -> x.substring(x.indexOf(' ') + 1))
                                .distinct()
                                .count();
                        if (distinct != t.size()) {
                            o.fail("a replica's paged timeline repeats " + (t.size() - distinct) + " entries");
                        }
                    }
                });
    }

    /** The whole timeline of {@code job} as one replica pages through it: "seq time type summary" per entry. */
    private List<String> timeline(Replica r, String job) throws Exception {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            var page = r.get(
                    "/api/v1/jobs/" + job + "/timeline?limit=200"
                            + (cursor == null
                                    ? ""
                                    : "&cursor=" + java.net.URLEncoder.encode(cursor, StandardCharsets.UTF_8)),
                    cluster.token);
            if (page == null) {
                break;
            }
            for (var e : page.path("entries")) {
                out.add(e.path("seq").asLong() + " " + e.path("time").asText() + " "
                        + e.path("type").asText() + " " + e.path("summary").asText());
            }
            cursor = page.path("nextCursor").isTextual()
                    ? page.path("nextCursor").asText()
                    : null;
        } while (cursor != null && out.size() < 10_000);
        return out;
    }

    private void send(String scenario, String id, String subject, Ledger.Kind kind, String detail, String json) {
        int at = json.indexOf("\"source\":\"") + 10;
        String source = json.substring(at, json.indexOf('"', at));
        cluster.load.send(new Workload.Pending(
                json, subject, new Ledger.Entry(scenario, id, source, kind, subject, detail, "kafka")));
    }

    Outcome poison() throws InterruptedException {
        return s.run(
                "poison",
                "poison records among the load: invalid JSON, an empty value, NUL bytes in binary-mode "
                        + "ce_id and ce_source headers and in a data string, a year-0 time, a time without seconds, an unknown "
                        + "type, a 300-character id, a JSON array; over HTTP a batch mixing valid and invalid events",
                (o, w, m) -> {
                    String sc = w.scenario();
                    int n = s.quick ? 3 : 20;
                    for (int round = 0; round < n; round++) {
                        for (Map.Entry<String, SentRecord> p :
                                records(sc, round).entrySet()) {
                            Ledger.Entry e = new Ledger.Entry(
                                    sc, p.getKey(), POISON_SOURCE, Ledger.Kind.POISON, "faults-poison", null, "kafka");
                            cluster.load.sendKafka(
                                    "faults-poison",
                                    p.getValue().value(),
                                    p.getValue().headers(),
                                    e);
                        }
                        httpBatch(sc, round);
                        Waits.sleep(Duration.ofMillis(500));
                    }
                    cluster.load.flush(Duration.ofSeconds(60));
                    m.end(cluster.ledger.of(sc));
                });
    }

    /** A Kafka record as sent: its value and headers. */
    private record SentRecord(byte[] value, Map<String, byte[]> headers) {}

    private static Map<String, SentRecord> records(String sc, int round) {
        Map<String, SentRecord> out = new LinkedHashMap<>();
        Instant now = Instant.now();
        String p = sc + "-poison-" + round + "-";
        out.put(p + "json", structured("{\"specversion\":\"1.0\",\"id\":\"" + p + "json\",\"source\""));
        out.put(p + "empty", new SentRecord(new byte[0], Map.of()));
        out.put(p + "nul-id", binary(p + "nul-id\u0000x", POISON_SOURCE, now.toString()));
        out.put(p + "nul-source", binary(p + "nul-source", POISON_SOURCE + "\u0000", now.toString()));
        out.put(
                p + "year0",
                structured(Events.envelope(p + "year0", POISON_SOURCE, "node.registered", "faults-poison", null, "{}")
                        .replace("\"time\":\"null\"", "\"time\":\"0000-01-01T00:00:00Z\"")
                        .replace("\"data\":{}", "\"data\":" + nodeData())));
        out.put(
                p + "noseconds",
                structured(Events.envelope(
                                p + "noseconds", POISON_SOURCE, "node.registered", "faults-poison", null, nodeData())
                        .replace("\"time\":\"null\"", "\"time\":\"2026-03-01T10:00Z\"")));
        out.put(
                p + "type",
                structured(
                        Events.envelope(p + "type", POISON_SOURCE, "node.exploded", "faults-poison", now, nodeData())));
        out.put(
                p + "nul-data",
                structured(Events.envelope(
                        p + "nul-data",
                        POISON_SOURCE,
                        "node.registered",
                        "faults-poison",
                        now,
                        nodeData().replace("faults-poison-pool", "faults\\u0000pool"))));
        out.put(
                p + "long-id",
                structured(Events.envelope(
                        p + "long-id" + "x".repeat(300),
                        POISON_SOURCE,
                        "node.registered",
                        "faults-poison",
                        now,
                        nodeData())));
        out.put(p + "array", structured("[1,2,3]"));
        return out;
    }

    private static String nodeData() {
        return "{\"pool\":\"faults-poison-pool\",\"capacityType\":\"spot\",\"gpuCount\":8}";
    }

    private static SentRecord structured(String json) {
        return new SentRecord(json.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    private static SentRecord binary(String id, String source, String time) {
        Map<String, byte[]> h = new LinkedHashMap<>();
        h.put("ce_specversion", bytes("1.0"));
        h.put("ce_id", bytes(id));
        h.put("ce_source", bytes(source));
        h.put("ce_type", bytes("node.registered"));
        h.put("ce_subject", bytes("faults-poison"));
        h.put("ce_time", bytes(time));
        return new SentRecord(bytes(nodeData()), h);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One HTTP batch: two valid events around three invalid ones; each must be judged on its own. */
    private void httpBatch(String sc, int round) throws InterruptedException {
        Instant now = Instant.now();
        String p = sc + "-hpoison-" + round + "-";
        String node = sc + "-hnode-" + round;
        List<Workload.Pending> batch = new ArrayList<>();
        batch.add(new Workload.Pending(
                Events.nodeRegistered(p + "ok", node, sc + "-pool", now),
                node,
                new Ledger.Entry(sc, p + "ok", Events.FLEET_SOURCE, Ledger.Kind.NODE, node, null, "http")));
        batch.add(poisonHttp(
                sc,
                p + "year0",
                Events.envelope(p + "year0", POISON_SOURCE, "node.registered", "faults-poison", null, nodeData())
                        .replace("\"time\":\"null\"", "\"time\":\"0000-01-01T00:00:00Z\"")));
        batch.add(poisonHttp(
                sc,
                p + "nul",
                Events.envelope(p + "nul\\u0000", POISON_SOURCE, "node.registered", "faults-poison", now, nodeData())));
        batch.add(poisonHttp(
                sc,
                p + "type",
                Events.envelope(p + "type", POISON_SOURCE, "node.exploded", "faults-poison", now, nodeData())));
        String node2 = node + "-b";
        batch.add(new Workload.Pending(
                Events.nodeRegistered(p + "ok2", node2, sc + "-pool", now),
                node2,
                new Ledger.Entry(sc, p + "ok2", Events.FLEET_SOURCE, Ledger.Kind.NODE, node2, null, "http")));
        cluster.load.postUntilAnswered(batch);
    }

    private static Workload.Pending poisonHttp(String sc, String id, String json) {
        return new Workload.Pending(
                json,
                "faults-poison",
                new Ledger.Entry(sc, id, POISON_SOURCE, Ledger.Kind.POISON, "faults-poison", null, "http"));
    }
}
