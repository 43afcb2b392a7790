package io.lifeline.runtime;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.lifeline.codec.EventCodec;
import io.lifeline.config.ModelConfig;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.eventlog.LogStacks;
import io.lifeline.eventlog.ModelCheckpointStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.postgresql.PGConnection;

/**
 * Start-up with and without a model checkpoint, on a stored log as a 16,000-GPU fleet writes it: 2,000 nodes of 8 GPUs
 * and 500 elastic jobs from the simulator, stored as the ingest gateway stores them (every lifecycle event, one GPU
 * sample per GPU and one progress per job per 5 minutes: about 4.6M rows a day, 138M in 30 days). The log is written
 * with COPY into an embedded PostgreSQL of its own (kept between runs in the data directory), then the model is rebuilt
 * as start-up rebuilds it ({@link ModelRebuild}): once from the whole log, then from a checkpoint taken at its end plus
 * one checkpoint interval (5 minutes) of events stored after it; then the packaged application is started on it a few
 * times, timed until it is ready. Not part of the test suite; see bench/startup.sh.
 *
 * <pre>
 * java -Xmx8g -cp ... io.lifeline.runtime.StartupBenchmark [days] [data-dir]
 * </pre>
 */
public final class StartupBenchmark {

    private static final Duration STORE_INTERVAL = Duration.ofMinutes(5);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final int COPY_ROWS = 50_000;

    private final AgroalDataSource db;
    private final String url;
    private final EventCodec codec = new EventCodec();
    private final Map<String, Long> lastStored = new HashMap<>();
    private long rows;

    private StartupBenchmark(AgroalDataSource db, String url) {
        this.db = db;
        this.url = url;
    }

    public static void main(String[] args) throws Exception {
        int days = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Path dir = Path.of(args.length > 1 ? args[1] : "target/startup-bench-pg");
        boolean fresh = !Files.exists(dir.resolve("PG_VERSION"));
        Files.createDirectories(dir);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(false)
                .setServerConfig("shared_buffers", "1GB")
                .setServerConfig("max_wal_size", "16GB")
                .setServerConfig("checkpoint_timeout", "30min")
                .start()) {
            String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
            Flyway.configure()
                    .dataSource(url, "postgres", null)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
            try (AgroalDataSource db = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                    .connectionPoolConfiguration(p -> p.maxSize(8)
                            .connectionFactoryConfiguration(
                                    f -> f.jdbcUrl(url).principal(new NamePrincipal("postgres")))))) {
                new StartupBenchmark(db, url).run(days, fresh);
            }
        }
    }

    private void run(int days, boolean fresh) throws Exception {
        Instant end = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        Instant start = end.minus(Duration.ofDays(days));
        FleetSimulator sim = new FleetSimulator(fleet(), start);
        if (fresh) {
            partitions(start, end.plus(Duration.ofDays(2)));
            long t0 = System.nanoTime();
            for (Instant t = start; t.isBefore(end); ) {
                Instant next = t.plus(Duration.ofHours(1)).isAfter(end) ? end : t.plus(Duration.ofHours(1));
                store(sim.advanceTo(next));
                t = next;
                if (t.getEpochSecond() % 86_400 == start.getEpochSecond() % 86_400) {
                    System.out.printf(
                            "  stored day %d: %,d rows in %d s%n",
                            Duration.between(start, t).toDays(), rows, (System.nanoTime() - t0) / 1_000_000_000);
                }
            }
            analyze();
            System.out.printf("log written: %,d rows in %d s%n", rows, (System.nanoTime() - t0) / 1_000_000_000);
        } else {
            System.out.println("reusing the stored log (delete the data directory to write it again)");
        }
        long stored = count("SELECT count(*) FROM event_log");
        long telemetry = count("SELECT count(*) FROM event_log WHERE type IN ('gpu.sample', 'trainer.progress')");
        System.out.printf(
                "stored: %,d rows (%,d telemetry) over %d days, %s on disk%n",
                stored,
                telemetry,
                days,
                text(
                        "SELECT pg_size_pretty(pg_total_relation_size('event_log') + coalesce((SELECT sum("
                                + "pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'event_log'::regclass), 0))"));
        exec("DELETE FROM model_checkpoint");

        Clock clock = Clock.systemUTC();
        ModelCheckpointStore checkpoints = LogStacks.checkpoints(db);
        ModelRuntime whole = ModelRuntimes.start(clock);
        ModelCheckpoints first = new ModelCheckpoints(whole, checkpoints, config(false), clock);
        long t0 = System.nanoTime();
        ModelRebuild.Result full = new ModelRebuild(LogStacks.follower(db, new EventCodec()), first, whole)
                .run((events, seqs) -> whole.enqueueFollowed(events, seqs, Duration.ofMinutes(5)));
        double fullSeconds = (System.nanoTime() - t0) / 1e9;
        int jobs = whole.read(m -> m.jobs().size()).get();
        int gpus = whole.read(m -> m.fleet().gpus().size()).get();
        System.out.printf(
                "without a checkpoint: %,d events replayed in %.1f s (%,.0f events/s); %,d GPUs, %,d jobs%n",
                full.events(), fullSeconds, full.events() / fullSeconds, gpus, jobs);
        System.out.printf(
                "  the whole log of 30 days (%,d rows at this rate): about %.0f s%n",
                stored * 30 / days, fullSeconds * 30 / days);

        long c0 = System.nanoTime();
        if (!first.checkpoint().get(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("no checkpoint was written");
        }
        System.out.printf(
                "checkpoint: %,d bytes; model thread held %d ms; saved, encoded and written in %d ms%n",
                first.lastBytes(), first.lastHoldNanos() / 1_000_000, (System.nanoTime() - c0) / 1_000_000);
        first.stop();
        ModelRuntimes.stop(whole);

        // One checkpoint interval of events stored after the checkpoint.
        long before = rows;
        store(sim.advanceTo(end.plus(Duration.ofMinutes(5))));
        System.out.printf("stored after the checkpoint: %,d rows (5 minutes)%n", rows - before);

        ModelRuntime restarted = ModelRuntimes.start(clock);
        ModelCheckpoints second = new ModelCheckpoints(restarted, checkpoints, config(true), clock);
        long r0 = System.nanoTime();
        ModelRebuild.Result tail = new ModelRebuild(LogStacks.follower(db, new EventCodec()), second, restarted)
                .run((events, seqs) -> restarted.enqueueFollowed(events, seqs, Duration.ofMinutes(5)));
        double tailSeconds = (System.nanoTime() - r0) / 1e9;
        System.out.printf(
                "with a checkpoint: restored and %,d events replayed in %.1f s; %,d GPUs, %,d jobs (log %s)%n",
                tail.events(),
                tailSeconds,
                restarted.read(m -> m.fleet().gpus().size()).get(),
                restarted.read(m -> m.jobs().size()).get(),
                tail.position());
        if (!second.checkpoint().get(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("no checkpoint was written");
        }
        second.stop();
        ModelRuntimes.stop(restarted);
        applicationStarts(sim, end.plus(Duration.ofMinutes(5)));
    }

    /**
     * The packaged application started on this database {@code lifeline.startup-bench.runs} times (default 3), each
     * time after one more checkpoint interval of log: from the launch of its JVM until {@code /q/health/ready}
     * answers 200 (boot, migrations checked, the newest checkpoint restored, the log after it read, ingest open).
     * Each run stops it with SIGTERM, which writes a checkpoint as a stopping replica does.
     */
    private void applicationStarts(FleetSimulator sim, Instant from) throws Exception {
        String jar = System.getProperty("lifeline.jar", "target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(Path.of(jar))) {
            System.out.println("application start: skipped, no " + jar + " (./mvnw -DskipTests package)");
            return;
        }
        int runs = Integer.getInteger("lifeline.startup-bench.runs", 3);
        int port = Integer.getInteger("lifeline.startup-bench.port", 39390);
        Path work = Files.createTempDirectory("lifeline-startup-bench");
        List<Double> seconds = new ArrayList<>();
        Instant at = from;
        for (int run = 0; run < runs; run++) {
            long before = rows;
            at = at.plus(STORE_INTERVAL);
            store(sim.advanceTo(at));
            String javaBin =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(
                            javaBin,
                            "-Xmx4g",
                            "-Dquarkus.http.port=" + port,
                            "-Dquarkus.datasource.jdbc.url=" + url,
                            "-Dquarkus.datasource.username=postgres",
                            "-Dlifeline.demo.enabled=false",
                            "-Dlifeline.security.bootstrap-token-file=" + work.resolve("token"),
                            "-jar",
                            jar)
                    .redirectErrorStream(true)
                    .redirectOutput(work.resolve("run-" + run + ".log").toFile());
            long t0 = System.nanoTime();
            Process p = pb.start();
            try {
                java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
                java.net.URI ready = java.net.URI.create("http://127.0.0.1:" + port + "/q/health/ready");
                long deadline = t0 + Duration.ofMinutes(10).toNanos();
                while (true) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the application did not become ready; see " + work.resolve("run-" + run + ".log"));
                    }
                    try {
                        if (http.send(
                                                java.net.http.HttpRequest.newBuilder(ready)
                                                        .timeout(Duration.ofSeconds(2))
                                                        .build(),
                                                java.net.http.HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200) {
                            break;
                        }
                    } catch (java.io.IOException e) {
                        // not listening yet
                    }
                    Thread.sleep(100);
                }
                double s = (System.nanoTime() - t0) / 1e9;
                seconds.add(s);
                System.out.printf(
                        "application start %d: ready in %.1f s (%,d rows stored after the previous " + "checkpoint)%n",
                        run + 1, s, rows - before);
            } finally {
                p.destroy();
                if (!p.waitFor(2, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                }
            }
        }
        List<Double> sorted = seconds.stream().sorted().toList();
        System.out.printf(
                "application start: median %.1f s over %d runs %s%n",
                sorted.get(sorted.size() / 2), sorted.size(), seconds);
    }

    /** 2,000 8-GPU nodes (half spot) and 500 jobs of 2 to 6 nodes; GPU samples every 5 minutes, progress every minute. */
    private static Scenario fleet() {
        Scenario.Checkpointing checkpointing =
                new Scenario.Checkpointing(600, 12, true, 60, 300, 30, "s3://bench/runs", 0);
        List<Scenario.Job> jobs = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            jobs.add(new Scenario.Job(
                    "load-" + i % 8,
                    "job-" + i,
                    null,
                    null,
                    null,
                    List.of(),
                    2,
                    6,
                    8,
                    100,
                    0,
                    0,
                    1.5,
                    256,
                    0,
                    checkpointing));
        }
        return new Scenario(
                11,
                STORE_INTERVAL.toSeconds(),
                60,
                0.01,
                0.4,
                300,
                1200,
                null,
                List.of(
                        new Scenario.Pool(
                                "spot-a", CapacityType.SPOT, "us-east-1a", "p5.48xlarge", null, 1000, 8, 0.05, 120),
                        new Scenario.Pool(
                                "od-b", CapacityType.ON_DEMAND, "us-east-1b", "p4d.24xlarge", null, 1000, 8, 0, 120)),
                jobs);
    }

    /** Stores what the ingest gateway stores: every lifecycle event, telemetry once per GPU or job per interval. */
    private void store(List<Event> events) throws SQLException {
        StringBuilder csv = new StringBuilder(COPY_ROWS * 400);
        int n = 0;
        for (Event e : events) {
            if (e.isTelemetry() && !due(e)) {
                continue;
            }
            csv.append(quote(e.id()))
                    .append(',')
                    .append(quote(e.source()))
                    .append(',')
                    .append(e.type().wireName())
                    .append(',')
                    .append(quote(e.subject()))
                    .append(',')
                    .append(e.time())
                    .append(',')
                    .append(quote(codec.toJson(codec.encodeData(e.data()))))
                    .append('\n');
            if (++n == COPY_ROWS) {
                copy(csv);
                rows += n;
                n = 0;
                csv.setLength(0);
            }
        }
        if (n > 0) {
            copy(csv);
            rows += n;
        }
    }

    private boolean due(Event e) {
        String key = e.data() instanceof GpuData.Sample s
                ? s.uuid()
                : e.data() instanceof TrainerData.Progress ? e.subject() : null;
        if (key == null) {
            return true;
        }
        long t = e.time().toEpochMilli();
        Long last = lastStored.get(key);
        if (last != null && t - last < STORE_INTERVAL.toMillis() - 1_000) {
            return false;
        }
        lastStored.put(key, t);
        return true;
    }

    private void copy(CharSequence csv) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn(
                            "COPY event_log (event_id, source, type, subject, time, data) FROM STDIN WITH (FORMAT csv)",
                            new StringReader(csv.toString()));
        } catch (java.io.IOException e) {
            throw new SQLException(e);
        }
    }

    private static String quote(String s) {
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private void partitions(Instant from, Instant to) throws SQLException {
        for (LocalDate d = LocalDate.ofInstant(from, ZoneOffset.UTC);
                !d.isAfter(LocalDate.ofInstant(to, ZoneOffset.UTC));
                d = d.plusDays(1)) {
            exec("CREATE TABLE IF NOT EXISTS event_log_p" + DAY.format(d) + " PARTITION OF event_log FOR VALUES FROM ('"
                    + d + "T00:00:00Z') TO ('" + d.plusDays(1) + "T00:00:00Z')");
        }
    }

    private void analyze() throws SQLException {
        exec("VACUUM ANALYZE event_log");
    }

    private void exec(String sql) throws SQLException {
        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private long count(String sql) throws SQLException {
        return Long.parseLong(text(sql));
    }

    private String text(String sql) throws SQLException {
        try (Connection c = db.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static ModelConfig config(boolean fromCheckpoint) {
        return new ModelConfig() {
            @Override
            public Duration snapshotInterval() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration checkpointInterval() {
                return Duration.ofMinutes(5);
            }

            @Override
            public int checkpointsKept() {
                return 3;
            }

            @Override
            public boolean startFromCheckpoint() {
                return fromCheckpoint;
            }
        };
    }
}
