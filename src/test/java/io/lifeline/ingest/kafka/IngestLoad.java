package io.lifeline.ingest.kafka;

import static io.restassured.RestAssured.given;

import io.lifeline.codec.EventCodec;
import io.lifeline.config.KafkaConfig;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.KafkaResource;
import io.lifeline.testing.MixedEventStream;
import io.lifeline.testing.StatementStats;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.ThreadCpu;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The ingest benchmarks' load: a Kafka topic filled with the mixed stream, read by a bare consumer or by Lifeline's
 * Kafka ingest until applied, and HTTP batches posted until applied. Each call uses fresh event ids.
 */
final class IngestLoad {

    static final int HTTP_BATCH = 1000;
    static final int HTTP_CLIENTS = 4;
    static final int PARTITIONS = 4;

    private final IngestPipeline pipeline;
    private final EventCodec codec;
    private final ModelRuntime model;
    private final MeterRegistry registry;

    private final io.lifeline.eventlog.OffsetStore offsets;

    IngestLoad(
            IngestPipeline pipeline,
            EventCodec codec,
            ModelRuntime model,
            MeterRegistry registry,
            io.lifeline.eventlog.OffsetStore offsets) {
        this.offsets = offsets;
        this.pipeline = pipeline;
        this.codec = codec;
        this.model = model;
        this.registry = registry;
    }

    private static Properties common() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaResource.bootstrapServers());
        return p;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // a load generator: it counts what arrives, not each send
    void fill(String topic, int n, int run) throws Exception {
        try (Admin admin = Admin.create(common())) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1)))
                    .all()
                    .get();
        }
        Properties p = common();
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("linger.ms", "20");
        p.put("batch.size", "262144");
        p.put("compression.type", "lz4");
        // Filling a benchmark topic: plain at-least-once writes (idempotence retries loop under heavy load).
        p.put("enable.idempotence", "false");
        p.put("acks", "1");
        MixedEventStream events = new MixedEventStream("kafka-" + run + "-" + topic);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < n; i++) {
                MixedEventStream.Encoded e = events.next();
                producer.send(new ProducerRecord<>(topic, e.key(), e.json()));
            }
            producer.flush();
        }
    }

    double bareConsume(String topic, int n) {
        Properties c = common();
        c.put("group.id", "bare-" + topic);
        c.put("auto.offset.reset", "earliest");
        c.put("max.poll.records", "5000");
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(topic));
            long count = 0;
            long start = 0;
            while (count < n) {
                int got = consumer.poll(Duration.ofMillis(200)).count();
                if (got > 0 && start == 0) {
                    start = System.nanoTime();
                }
                count += got;
            }
            consumer.commitSync();
            return n / ((System.nanoTime() - start) / 1e9);
        }
    }

    double lifelineConsume(String topic, int n) throws Exception {
        long before = model.appliedCount();
        KafkaIngest ingest = new KafkaIngest(config(topic), pipeline, codec, registry, offsets);
        StatementStats.reset();
        ThreadCpu cpu = ThreadCpu.now();
        long joining = System.nanoTime();
        ingest.start(KafkaResource.bootstrapServers());
        try {
            // Timed like the bare consumer, from the first records taken (here: the first event applied), so that
            // neither counts the consumer group's join.
            while (model.appliedCount() == before) {
                Thread.sleep(1);
            }
            long start = System.nanoTime();
            while (model.appliedCount() - before < n) {
                Thread.sleep(5);
            }
            double rate = n / ((System.nanoTime() - start) / 1e9);
            System.out.printf(
                    "[bench] kafka ingest: group join to first event applied %.0f ms%n", (start - joining) / 1e6);
            System.out.print("[bench] kafka ingest CPU by thread, " + ThreadCpu.perEvent(cpu.since(), n));
            System.out.print("[bench] " + cpu.machine(n));
            System.out.print(StatementStats.top(n, 10));
            return rate;
        } finally {
            ingest.stop();
        }
    }

    double http(int n, int run) throws Exception {
        MixedEventStream events = new MixedEventStream("http-" + run + "-" + UUID.randomUUID());
        List<byte[]> bodies = new ArrayList<>();
        for (int b = 0; b < n / HTTP_BATCH; b++) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < HTTP_BATCH; i++) {
                sb.append(i == 0 ? "" : ",").append(new String(events.next().json(), StandardCharsets.UTF_8));
            }
            bodies.add(sb.append(']').toString().getBytes(StandardCharsets.UTF_8));
        }
        String ingestToken = TestTokens.ingest();
        long before = model.appliedCount();
        ExecutorService pool = Executors.newFixedThreadPool(HTTP_CLIENTS);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (byte[] body : bodies) {
            done.add(pool.submit(() -> given(TestTokens.auth(ingestToken))
                    .contentType("application/json")
                    .body(body)
                    .post("/api/v1/events")
                    .then()
                    .statusCode(200)));
        }
        for (Future<?> f : done) {
            f.get();
        }
        while (model.appliedCount() - before < n) {
            Thread.sleep(2);
        }
        double rate = n / ((System.nanoTime() - start) / 1e9);
        pool.shutdown();
        return rate;
    }

    /**
     * HTTP batches posted by {@link io.lifeline.bench.HttpLoadGenerator} in a JVM of its own, keep-alive, until the
     * model has applied them all; the clock starts when the generator, its bodies encoded, is told to go.
     */
    double httpOutOfProcess(int n, int run, String format, int connections) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xmx1g",
                "-XX:+UseParallelGC",
                "-cp",
                Path.of("target", "test-classes").toAbsolutePath().toString(),
                "io.lifeline.bench.HttpLoadGenerator",
                "url=http://localhost:" + io.restassured.RestAssured.port,
                "token=" + TestTokens.ingest(),
                "events=" + n,
                "batch=" + HTTP_BATCH,
                "connections=" + connections,
                "format=" + format,
                "prefix=http-" + format + "-" + run + "-" + UUID.randomUUID(),
                "wait=true");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String ready = out.readLine();
        if (ready == null || !ready.contains("ready")) {
            throw new IllegalStateException("load generator did not start: " + ready);
        }
        long before = model.appliedCount();
        StatementStats.reset();
        ThreadCpu cpu = ThreadCpu.now();
        long start = System.nanoTime();
        try (Writer go = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            go.write("go\n");
        }
        String result = out.readLine();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("load generator failed: " + result);
        }
        while (model.appliedCount() - before < n) {
            Thread.sleep(2);
        }
        double rate = n / ((System.nanoTime() - start) / 1e9);
        System.out.print("[bench] HTTP (" + format + ") ingest CPU by thread, " + ThreadCpu.perEvent(cpu.since(), n));
        System.out.print("[bench] " + cpu.machine(n));
        System.out.print(StatementStats.top(n, 10));
        System.out.println("[bench] load generator: " + result);
        return rate;
    }

    private static KafkaConfig config(String topic) {
        return new KafkaConfig() {
            @Override
            public Optional<String> bootstrapServers() {
                return Optional.of(KafkaResource.bootstrapServers());
            }

            @Override
            public List<String> topics() {
                return List.of(topic);
            }

            @Override
            public String dlqTopic() {
                return topic + ".dlq";
            }

            @Override
            public String groupId() {
                return "lifeline-" + topic;
            }

            @Override
            public int maxPollRecords() {
                return 5000;
            }

            @Override
            public int maxInFlightBatches() {
                return 8;
            }

            @Override
            public Optional<Integer> decodeThreads() {
                return Optional.empty();
            }

            @Override
            public Duration retryBackoff() {
                return Duration.ofMillis(200);
            }

            @Override
            public Map<String, String> properties() {
                return Map.of();
            }
        };
    }
}
