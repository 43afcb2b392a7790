package io.lifeline.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fault suite: real processes on loopback (a KRaft broker, a PostgreSQL server, the mock Kubernetes API server,
 * two Lifeline replicas behind one address), a steady load with known event ids, and one scenario per fault, each
 * with its verdict. Prints the table, writes the summary as JSON and exits 0 only when every verdict passed.
 * {@code bench/faults} runs it; see there for the options.
 */
public final class FaultSuite {

    /** The scenarios of {@code --short}: about 6 minutes. */
    static final List<String> SHORT = List.of("broker-restart", "postgres-restart", "leader-kill", "poison");

    private FaultSuite() {}

    /** The options of one run. */
    record Options(
            boolean quick,
            Path out,
            Path work,
            int base,
            int rate,
            int lifecycleRate,
            Duration outage,
            Set<String> only,
            String jar,
            String classPath,
            String command) {}

    public static void main(String[] args) throws Exception {
        Options opt = parse(args);
        boolean passed;
        try {
            passed = run(opt);
        } finally {
            Child.endAllNow();
        }
        System.exit(passed ? 0 : 1);
    }

    static Options parse(String[] args) {
        boolean quick = false;
        Path out = null;
        Path work = null;
        int base = 39100;
        Integer rate = null;
        Integer lifecycle = null;
        Duration outage = null;
        Set<String> only = new TreeSet<>();
        boolean onlyGiven = false;
        String jar =
                Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath().toString();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--short" -> quick = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--work" -> work = Path.of(args[++i]);
                case "--port-base" -> base = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                case "--lifecycle-rate" -> lifecycle = Integer.parseInt(args[++i]);
                case "--outage" -> outage = Duration.ofSeconds(Long.parseLong(args[++i]));
                case "--only" -> {
                    only.addAll(Arrays.asList(args[++i].split(",")));
                    onlyGiven = true;
                }
                case "--jar" -> jar = Path.of(args[++i]).toAbsolutePath().toString();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (base < 39000 || base + 30 > 39999) {
            throw new IllegalArgumentException("--port-base must leave base..base+30 inside 39000-39999");
        }
        if (quick && !onlyGiven) {
            only.addAll(SHORT);
        }
        Path w = work != null
                ? work
                : Path.of("target/faults/run-" + Instant.now().toString().replace(':', '-'));
        return new Options(
                quick,
                out != null ? out : w.resolve("summary.json"),
                w.toAbsolutePath(),
                base,
                rate != null ? rate : quick ? 5_000 : 20_000,
                lifecycle != null ? lifecycle : quick ? 100 : 200,
                outage != null ? outage : Duration.ofSeconds(quick ? 30 : 600),
                only,
                jar,
                System.getProperty("faults.classpath", System.getProperty("java.class.path")),
                System.getProperty("faults.command", "bench/faults " + String.join(" ", args)));
    }

    /** The scenarios of a run, in order: name and how to run it. */
    private interface Step {
        List<Outcome> run() throws Exception;
    }

    static boolean run(Options opt) throws Exception {
        Files.createDirectories(opt.work());
        Cluster cluster = new Cluster(new Cluster.Settings(
                opt.work(), opt.base(), opt.jar(), opt.classPath(), opt.rate(), opt.lifecycleRate()));
        List<Outcome> outcomes = new ArrayList<>();
        long started = System.nanoTime();
        ObjectNode summary = new ObjectMapper().createObjectNode();
        try {
            System.out.println(
                    "faults: starting PostgreSQL, Kafka, the mock API server and two replicas in " + opt.work());
            cluster.start();
            Scenarios s = new Scenarios(cluster, opt.quick());
            LeaderScenarios leader = new LeaderScenarios(s);
            InputScenarios input = new InputScenarios(s);
            Map<String, Step> steps = new LinkedHashMap<>();
            steps.put("steady", () -> List.of(s.steady()));
            steps.put("broker-restart", () -> List.of(s.brokerRestart()));
            steps.put("postgres-restart", () -> List.of(s.postgresRestart()));
            steps.put("postgres-unreachable", () -> List.of(s.postgresUnreachable(opt.outage())));
            steps.put("leader-kill", () -> List.of(leader.leaderKill()));
            steps.put("leader-kill-mid-drain", () -> List.of(leader.leaderKillMidDrain()));
            steps.put("leader-pause", () -> List.of(leader.leaderPause()));
            steps.put("kube-slow-failing", () -> List.of(leader.kubeSlowFailing()));
            steps.put("duplicates-late-ooo", () -> List.of(input.duplicatesLateOutOfOrder()));
            steps.put("poison", () -> List.of(input.poison()));
            steps.put("job-via-both-replicas", () -> List.of(input.jobThroughBothReplicas()));
            steps.put("quickstart-kill", () -> List.of(new QuickStartScenario(cluster).run()));
            steps.put("rolling-restart", () -> List.of(s.rollingRestart(), s.wholeRun()));
            for (Map.Entry<String, Step> step : steps.entrySet()) {
                if (!opt.only().isEmpty() && !opt.only().contains(step.getKey())) {
                    continue;
                }
                System.out.println("faults: scenario " + step.getKey());
                for (Outcome o : step.getValue().run()) {
                    outcomes.add(o);
                    System.out.println("faults: " + o.row());
                    write(opt, summary, cluster, outcomes, started);
                }
            }
        } catch (Exception e) {
            Outcome o = new Outcome("setup", "starting the processes of the suite");
            o.fail("could not run: " + e);
            e.printStackTrace();
            outcomes.add(o);
        } finally {
            write(opt, summary, cluster, outcomes, started);
            cluster.close();
        }
        System.out.println();
        System.out.println(Outcome.header());
        outcomes.forEach(o -> System.out.println(o.row()));
        System.out.println();
        System.out.println(
                new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(summary.path("totals")));
        System.out.println("faults: summary in " + opt.out());
        return !outcomes.isEmpty() && outcomes.stream().allMatch(Outcome::passed);
    }

    private static void write(Options opt, ObjectNode summary, Cluster cluster, List<Outcome> outcomes, long started)
            throws Exception {
        double seconds = Waits.seconds(started, System.nanoTime());
        summary.put("command", opt.command());
        summary.put("short", opt.quick());
        summary.put("rateTarget", opt.rate());
        summary.put("lifecycleRateTarget", opt.lifecycleRate());
        summary.put("seconds", seconds);
        if (cluster.load != null) {
            summary.put("eventsSent", cluster.load.sent());
            summary.put("telemetryAcknowledged", cluster.ledger.telemetry());
            summary.put("lifecycleProduced", cluster.ledger.all().size());
            summary.put("rateAchieved", cluster.load.achievedRate());
            summary.put("sendFailures", cluster.ledger.sendFailures());
            summary.put("httpRetries", cluster.load.httpRetries());
        }
        summary.put(
                "loadAverage",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
        ArrayNode list = summary.putArray("scenarios");
        long lost = 0;
        long twice = 0;
        long steps = 0;
        double takeover = 0;
        int ran = 0;
        long lostAtEnd = 0;
        long twiceAtEnd = 0;
        for (Outcome o : outcomes) {
            list.add(o.toJson());
            if (o.accounting != null && o.scenario.equals("whole-run")) {
                // The same events again: counted once, as whichever count is higher.
                lostAtEnd = o.accounting.lost();
                twiceAtEnd = o.accounting.duplicated();
            } else if (o.accounting != null) {
                lost += o.accounting.lost();
                twice += o.accounting.duplicated();
            }
            steps += o.stepsTwice;
            if (o.takeoverSeconds != null) {
                takeover = Math.max(takeover, o.takeoverSeconds);
            }
            if (!o.scenario.equals("whole-run") && !o.scenario.equals("setup")) {
                ran++;
            }
        }
        lost = Math.max(lost, lostAtEnd);
        twice = Math.max(twice, twiceAtEnd);
        ObjectNode totals = summary.putObject("totals");
        totals.put("faults_scenarios", ran);
        totals.put("faults_lost_events", lost);
        totals.put("faults_applied_twice", twice);
        totals.put("faults_action_steps_twice", steps);
        totals.put("takeover_seconds", takeover);
        totals.put("passed", !outcomes.isEmpty() && outcomes.stream().allMatch(Outcome::passed));
        Files.createDirectories(opt.out().toAbsolutePath().getParent());
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(opt.out().toFile(), summary);
    }
}
