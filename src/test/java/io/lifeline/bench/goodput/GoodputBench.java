package io.lifeline.bench.goodput;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.bench.goodput.InterruptionHistory.Cause;
import io.lifeline.bench.goodput.InterruptionHistory.Interruption;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench/goodput}: the same seeded interruption history through two arms, without Lifeline and with it, at each
 * job size, beside the Young/Daly bound; and the ETTR of both arms against the interruption rate (0.5 to 4 times the
 * published rates) for the plot.
 * <pre>
 * java -cp ... io.lifeline.bench.goodput.GoodputBench [--gpus 1024,16384] [--days 54] [--seed N] [--runs 3]
 *     [--notice 120] [--checkpoint-seconds C] [--sweep 0.5,1,2,3,4] [--sweep-gpus 1024] [--out bench/goodput.json]
 * </pre>
 * Each size runs {@code --runs} histories (seeds N, N+1, ...); the sweep runs the first seed.
 */
public final class GoodputBench {

    private GoodputBench() {}

    /** Both arms over one history. */
    record Pair(GoodputSetup setup, int interruptions, ArmResult without, ArmResult with, double bound) {}

    static Pair pair(GoodputSetup s) {
        List<Interruption> history = InterruptionHistory.draw(s);
        ArmResult a = new GoodputArm(s, false, history).run();
        ArmResult b = new GoodputArm(s, true, history).run();
        return new Pair(s, history.size(), a, b, bound(s));
    }

    /**
     * The Young/Daly optimum of periodic checkpointing for the same checkpoint cost, restart cost and rates: the
     * interval is Daly's for the interruptions that throw work away (those without notice), each of which costs half an
     * interval of rework on average, and every interruption (announced or not) costs its restart.
     * ETTR = 1 − C/τ − τ/(2·M_unannounced) − R̄/M_all.
     */
    static double bound(GoodputSetup s) {
        double unannounced = 0;
        double restart = 0;
        for (Cause c : Cause.values()) {
            double rate = InterruptionHistory.rate(s, c);
            if (!c.announced()) {
                unannounced += rate;
            }
            boolean replaces = c != Cause.SOFTWARE && c != Cause.HANG;
            restart += rate * (replaces ? s.nodeRestartSeconds() : s.inPlaceRestartSeconds());
        }
        double m = 1 / unannounced;
        double c = s.checkpointSeconds();
        double tau = c > IntervalAdvisor.FIRST_ORDER_LIMIT * m
                ? IntervalAdvisor.dalyHigherOrder(c, m)
                : IntervalAdvisor.dalyFirstOrder(c, m);
        return Math.max(0, 1 - c / tau - tau / (2 * m) - restart);
    }

    public static void main(String[] args) throws IOException {
        List<Integer> sizes = List.of(1024, 16_384);
        double days = GoodputSetup.LLAMA3_DAYS;
        Long seed = null;
        int repeats = 3;
        Double notice = null;
        Double checkpoint = null;
        List<Double> sweep = List.of(0.5, 1.0, 2.0, 3.0, 4.0);
        int sweepGpus = 1024;
        Path out = Path.of("bench/goodput.json");
        for (int i = 0; i < args.length; i += 2) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--gpus" -> sizes = ints(v);
                case "--days" -> days = Double.parseDouble(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--runs" -> repeats = Integer.parseInt(v);
                case "--notice" -> notice = Double.parseDouble(v);
                case "--checkpoint-seconds" -> checkpoint = Double.parseDouble(v);
                case "--sweep" -> sweep = v.isBlank() ? List.of() : doubles(v);
                case "--sweep-gpus" -> sweepGpus = Integer.parseInt(v);
                case "--out" -> out = Path.of(v);
                default ->
                    throw new IllegalArgumentException("unknown option " + args[i]
                            + " (--gpus, --days, --seed, --runs, --notice, --checkpoint-seconds, --sweep, --sweep-gpus,"
                            + " --out)");
            }
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        ArrayNode runs = root.putArray("runs");
        for (int gpus : sizes) {
            GoodputSetup first = setup(gpus, days, seed, notice, checkpoint);
            for (int r = 0; r < repeats; r++) {
                Pair p = pair(first.withSeed(first.seed() + r));
                print(p);
                runs.add(GoodputReport.toJson(json, p));
            }
        }
        ArrayNode curve = root.putArray("sweep");
        for (double scale : sweep) {
            GoodputSetup s = setup(sweepGpus, days, seed, notice, checkpoint).withRateScale(scale);
            Pair p = pair(s);
            System.out.printf(
                    Locale.ROOT,
                    "sweep %dk x%.1f: without %.2f %%, with %.2f %%, bound %.2f %%%n",
                    sweepGpus / 1024,
                    scale,
                    p.without().ettr() * 100,
                    p.with().ettr() * 100,
                    p.bound() * 100);
            ObjectNode point = curve.addObject();
            point.put("gpus", sweepGpus);
            point.put("rate_scale", scale);
            point.put("interruptions", p.interruptions());
            point.put("ettr_without", p.without().ettr());
            point.put("ettr_with", p.with().ettr());
            point.put("ettr_bound", p.bound());
            point.put("ledger_error_pp_without", p.without().ledgerErrorPp());
            point.put("ledger_error_pp_with", p.with().ledgerErrorPp());
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json.writeValueAsString(root) + "\n");
        System.out.println("wrote " + out);
    }

    static GoodputSetup setup(int gpus, double days, Long seed, Double notice, Double checkpoint) {
        GoodputSetup s = GoodputSetup.of(gpus).withDays(days);
        if (seed != null) {
            s = s.withSeed(seed);
        }
        if (notice != null) {
            s = s.withNotice(notice);
        }
        if (checkpoint != null) {
            s = s.withCheckpointSeconds(checkpoint);
        }
        return s;
    }

    private static void print(Pair p) {
        GoodputSetup s = p.setup();
        System.out.printf(
                Locale.ROOT,
                "== %,d GPUs, %.0f days, seed %d: %d interruptions%n",
                s.gpus(),
                s.days(),
                s.seed(),
                p.interruptions());
        for (String line : s.sources()) {
            System.out.println("   " + line);
        }
        for (ArmResult r : List.of(p.without(), p.with())) {
            System.out.printf(
                    Locale.ROOT,
                    "%-17s ETTR %.2f %% (ledger %.2f %%, error %.3f pp), $%.2f per useful GPU-hour, saves %d,"
                            + " final interval %.0f s%n",
                    r.arm(),
                    r.ettr() * 100,
                    r.ledgerEttr() * 100,
                    r.ledgerErrorPp(),
                    r.costPerUsefulGpuHour(),
                    r.saves(),
                    r.finalIntervalSeconds());
            StringBuilder b = new StringBuilder("   lost GPU-hours: checkpoint ");
            b.append(String.format(Locale.ROOT, "%.0f", r.checkpointGpuHours()));
            for (Cause c : Cause.values()) {
                b.append(String.format(
                        Locale.ROOT,
                        ", %s %.0f (%d)",
                        c.wire(),
                        r.lostGpuHours(c),
                        r.interruptions().getOrDefault(c, 0)));
            }
            System.out.println(b);
            if (!r.actions().isEmpty() || !r.refusals().isEmpty()) {
                System.out.println("   actions " + r.actions()
                        + (r.refusals().isEmpty()
                                ? ""
                                : ", refused " + r.refusals().size() + ": "
                                        + r.refusals().get(0)));
            }
        }
        System.out.printf(Locale.ROOT, "bound (Young/Daly) %.2f %%%n", p.bound() * 100);
    }

    private static List<Integer> ints(String v) {
        List<Integer> out = new ArrayList<>();
        for (String p : v.split(",")) {
            out.add(Integer.parseInt(p.trim()));
        }
        return out;
    }

    private static List<Double> doubles(String v) {
        List<Double> out = new ArrayList<>();
        for (String p : v.split(",")) {
            out.add(Double.parseDouble(p.trim()));
        }
        return out;
    }
}
