package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The load generator: a steady stream at {@code rate} events per second, most of it GPU telemetry for a fixed set of
 * nodes, {@code lifecycleRate} of it the current scenario's lifecycle events ({@link Workload}), a share of those
 * over HTTP through the front address (a well-behaved client: a 503 or a broken connection is retried, the same
 * batch, until answered). Each lifecycle event enters the {@link Ledger} once acknowledged.
 */
final class Load implements AutoCloseable {

    /** Header carrying the suite's id on every record, so that a dead letter can be told apart whatever its body. */
    static final String ID_HEADER = "faults-id";

    static final String TOPIC = "lifeline.events";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaProducer<byte[], byte[]> producer;
    private final Ledger ledger;
    private final String frontUrl;
    private final String token;
    private final int rate;
    private final int lifecycleRate;
    private final List<String> telemetryNodes;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3))
            .build();
    private final BlockingQueue<Workload.Pending> httpQueue = new LinkedBlockingQueue<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong httpRetries = new AtomicLong();
    private volatile Workload workload;
    private volatile boolean running = true;
    private final List<Thread> threads = new ArrayList<>();
    private long telemetrySeq;
    private final org.apache.kafka.clients.producer.Callback telemetryAcked;
    private volatile long startedNanos;

    Load(
            String bootstrap,
            Ledger ledger,
            String frontUrl,
            String token,
            int rate,
            int lifecycleRate,
            List<String> telemetryNodes) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L << 20));
        // Through a broker restart or a long outage the producer keeps retrying; nothing it was given is dropped.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(60 * 60 * 1000));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(60 * 60 * 1000));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(p);
        this.ledger = ledger;
        this.telemetryAcked = (meta, error) -> {
            if (error == null) {
                ledger.telemetrySent(1);
            } else {
                ledger.sendFailed();
            }
        };
        this.frontUrl = frontUrl;
        this.token = token;
        this.rate = rate;
        this.lifecycleRate = Math.min(rate, lifecycleRate);
        this.telemetryNodes = telemetryNodes;
    }

    void start() {
        startedNanos = System.nanoTime();
        threads.add(thread("faults-load", this::run));
        threads.add(thread("faults-http", this::sendHttp));
    }

    private static Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Lifecycle events come from {@code w} from now on (null: telemetry only). */
    void workload(Workload w) {
        workload = w;
    }

    /** Events handed to Kafka or HTTP so far (telemetry and lifecycle). */
    long sent() {
        return sent.get();
    }

    /** Events per second handed over since the load started. */
    long achievedRate() {
        double s = (System.nanoTime() - startedNanos) / 1e9;
        return s <= 0 ? 0 : Math.round(sent.get() / s);
    }

    long httpRetries() {
        return httpRetries.get();
    }

    private void run() {
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(20);
        double perTick = rate * 0.02;
        double lifecyclePerTick = lifecycleRate * 0.02;
        double owed = 0;
        double owedLifecycle = 0;
        long next = System.nanoTime();
        while (running) {
            owed += perTick;
            owedLifecycle += lifecyclePerTick;
            Instant now = Instant.now();
            Workload w = workload;
            while (owed >= 1 && running) {
                if (w != null && owedLifecycle >= 1) {
                    send(w.next(now));
                    owedLifecycle--;
                } else {
                    telemetry(now);
                }
                owed--;
            }
            if (w == null) {
                owedLifecycle = 0;
            }
            next += tickNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleepNanos(wait);
            } else if (wait < -TimeUnit.SECONDS.toNanos(1)) {
                // Behind by more than a second (the producer blocked): do not burst to catch up.
                next = System.nanoTime();
                owed = 0;
            }
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // a load generator: it counts what arrives, not each send
    private void telemetry(Instant now) {
        long i = telemetrySeq++;
        String node = telemetryNodes.get((int) (i / 8 % telemetryNodes.size()));
        String json = Events.gpuSample("t-" + i, node, (int) (i % 8), 40 + i % 60, now);
        producer.send(
                new ProducerRecord<>(
                        TOPIC, node.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8)),
                telemetryAcked);
        sent.incrementAndGet();
    }

    /** Sends one telemetry event to Kafka, outside the ledger. */
    @SuppressWarnings("FutureReturnValueIgnored") // a load generator: it counts what arrives, not each send
    void sendTelemetry(String key, String json) {
        producer.send(new ProducerRecord<>(
                TOPIC, key.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8)));
        sent.incrementAndGet();
    }

    /** Sends one lifecycle event the way its ledger entry says (Kafka or HTTP). */
    void send(Workload.Pending p) {
        if ("http".equals(p.entry().via())) {
            httpQueue.add(p);
        } else {
            sendKafka(p.key(), p.json().getBytes(StandardCharsets.UTF_8), Map.of(), p.entry());
        }
        sent.incrementAndGet();
    }

    /** Sends a record as given (binary mode headers, invalid bodies), entering {@code entry} once acknowledged. */
    @SuppressWarnings("FutureReturnValueIgnored") // a load generator: it counts what arrives, not each send
    void sendKafka(String key, byte[] value, Map<String, byte[]> headers, Ledger.Entry entry) {
        ProducerRecord<byte[], byte[]> r =
                new ProducerRecord<>(TOPIC, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
        headers.forEach((k, v) -> r.headers().add(k, v));
        r.headers().add(ID_HEADER, entry.id().getBytes(StandardCharsets.UTF_8));
        producer.send(r, (meta, error) -> {
            if (error == null) {
                ledger.produced(entry);
            } else {
                ledger.sendFailed();
            }
        });
    }

    /** Waits until everything handed to the producer is acknowledged and the HTTP queue is empty. */
    void flush(Duration timeout) throws InterruptedException {
        producer.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!httpQueue.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Thread.sleep(500);
    }

    private void sendHttp() {
        while (running) {
            List<Workload.Pending> batch = new ArrayList<>();
            try {
                Workload.Pending first = httpQueue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                httpQueue.drainTo(batch, 499);
                postUntilAnswered(batch);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Posts one batch until Lifeline answers it (200, or 400 with every event refused), as a careful client does. */
    void postUntilAnswered(List<Workload.Pending> batch) throws InterruptedException {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < batch.size(); i++) {
            body.append(i == 0 ? "" : ",").append(batch.get(i).json());
        }
        body.append(']');
        HttpRequest req = HttpRequest.newBuilder(URI.create(frontUrl + "/api/v1/events"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/cloudevents-batch+json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
        while (running) {
            try {
                HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
                JsonNode answer = resp.body().isEmpty() ? null : JSON.readTree(resp.body());
                boolean allRefused = resp.statusCode() == 400 && answer != null && answer.has("errors");
                if (resp.statusCode() == 200 || allRefused) {
                    Map<Integer, String> refused = new HashMap<>();
                    for (JsonNode e : answer.path("errors")) {
                        refused.put(e.path("index").asInt(), e.path("reason").asText());
                    }
                    for (int i = 0; i < batch.size(); i++) {
                        Ledger.Entry entry = batch.get(i).entry();
                        if (refused.containsKey(i)) {
                            ledger.refusedOverHttp(entry.id(), refused.get(i));
                        }
                        ledger.produced(entry);
                    }
                    return;
                }
            } catch (IOException e) {
                // connection refused or broken: the replica behind the address is gone; try again
            }
            httpRetries.incrementAndGet();
            Thread.sleep(1_000);
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
