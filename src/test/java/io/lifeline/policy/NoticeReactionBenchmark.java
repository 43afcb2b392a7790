package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.ActionService;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.BenchmarkReport;
import io.lifeline.testing.KafkaResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reaction latency of the notice policy: from the moment an interruption notice is handed to ingest to the moment
 * the resulting {@code prepare_exit} command is on the {@code lifeline.commands} topic, while a background thread
 * feeds ingest 20,000 events/s of telemetry and lifecycle events. Each notice is on a fresh node hosting the ranks of
 * one job, so every notice is a new drain (no idempotent replay). Notices are sent one at a time, each after the
 * previous command arrived, so each measurement is the path alone under the background load, not a queue of notices.
 *
 * <p>Two clocks, both in the application's JVM and so on one wall clock: the command record's CreateTime (stamped by
 * the producer when the command is handed to it, which is when Lifeline has done its part) and the time this test's
 * consumer received it (adding the broker's append and the consumer's fetch: an upper bound of "on the topic").
 *
 * <p>Every notice takes a further node out of service, so past the tenth the automation brake would hold the drains,
 * as it should in a fleet; the benchmark switches the brake off to time the path itself ({@link BrakeOff}).
 *
 * <p>Not part of the test suite: {@code ./mvnw test -Dgroups=benchmark -DexcludedGroups= -Dtest=NoticeReactionBenchmark}.
 */
@QuarkusTest
@TestProfile(NoticeReactionBenchmark.BrakeOff.class)
@Tag("benchmark")
class NoticeReactionBenchmark {

    /** The brake off: 300 drains in a few minutes are the load here, not a runaway policy. */
    public static class BrakeOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lifeline.policies.brake.enabled", "false");
        }
    }

    private static final int WARM_UP = 30;
    private static final int NOTICES = 300;
    private static final int BACKGROUND_PER_SECOND = 20_000;
    private static final int BATCH = 200;
    private static final String POOL = "reaction-bench";
    private static final String TOPIC = "lifeline.commands";

    @Inject
    IngestGateway gateway;

    @Inject
    ModelRuntime runtime;

    @Inject
    DefaultPolicyService policies;

    @Inject
    ActionService actions;

    @Test
    void noticeToCheckpointCommandUnderLoad() throws Exception {
        String run = Long.toString(System.currentTimeMillis(), 36);
        int total = WARM_UP + NOTICES;
        List<Event> fleet = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            fleet.addAll(nodeWithJob(node(run, i), job(run, i)));
        }
        for (int i = 0; i < fleet.size(); i += 500) {
            gateway.submit(fleet.subList(i, Math.min(fleet.size(), i + 500)))
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        }
        runtime.barrier().get(30, TimeUnit.SECONDS);
        PolicyView before = policies.get(PolicyName.NOTICE_CHECKPOINT_DRAIN);
        policies.update(
                PolicyName.NOTICE_CHECKPOINT_DRAIN,
                before.mode(),
                Map.of("pool:" + POOL, PolicyMode.ON),
                Caller.unrestricted("reaction-benchmark"));

        Map<String, Long> applied = new ConcurrentHashMap<>();
        runtime.addApplyListener((e, outcome, m) -> {
            if (e.type() == EventType.NODE_INTERRUPTION_NOTICE && e.subject().startsWith("rb-" + run + "-")) {
                applied.put(e.subject(), System.currentTimeMillis());
            }
        });
        Map<String, long[]> arrivals = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        ensureTopic();
        CountDownLatch assigned = new CountDownLatch(1);
        Thread consumer = new Thread(() -> consume(run, arrivals, stop, assigned), "bench-commands");
        consumer.start();
        assertThat(assigned.await(30, TimeUnit.SECONDS)).as("consumer assigned").isTrue();
        Background load = new Background(gateway, run);
        Thread loader = new Thread(load, "bench-background");
        try {
            loader.start();
            Thread.sleep(3000);
            long loadFrom = System.nanoTime();
            long acceptedFrom = load.accepted.get();
            List<Long> created = new ArrayList<>();
            List<Long> received = new ArrayList<>();
            long[] handedAt = new long[total];
            int resent = 0;
            for (int i = 0; i < total; i++) {
                String job = job(run, i);
                Event notice = new Event(
                        "notice-" + run + "-" + i,
                        "bench/cloud",
                        EventType.NODE_INTERRUPTION_NOTICE,
                        node(run, i),
                        Instant.now(),
                        new NodeData.InterruptionNotice(
                                NoticeKind.SPOT_RECLAIM, "aws", Instant.now().plusSeconds(120)));
                // A notice ingest pushes back (its buffer full of background events) is handed again: the latency
                // counts from the submission ingest accepted.
                long handed;
                CompletableFuture<IngestReceipt> accepted;
                long deadline = System.currentTimeMillis() + 10_000;
                do {
                    handed = System.currentTimeMillis();
                    accepted = gateway.submit(List.of(notice)).toCompletableFuture();
                    while (!arrivals.containsKey(job)
                            && !accepted.isCompletedExceptionally()
                            && System.currentTimeMillis() < deadline) {
                        Thread.sleep(0, 200_000);
                    }
                    if (accepted.isCompletedExceptionally()) {
                        resent++;
                        Thread.sleep(1);
                    }
                } while (accepted.isCompletedExceptionally() && System.currentTimeMillis() < deadline);
                handedAt[i] = handed;
                long[] at = arrivals.get(job);
                assertThat(at).as("command for %s within 10 s", job).isNotNull();
                if (i >= WARM_UP) {
                    created.add(at[0] - handed);
                    received.add(at[1] - handed);
                }
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - loadFrom) / 1e9;
            double rate = (load.accepted.get() - acceptedFrom) / seconds;
            BenchmarkReport r = new BenchmarkReport("notice-reaction");
            report(r, "to the command's CreateTime", created);
            report(r, "to the consumer's receipt", received);
            r.add("background events/s accepted by ingest during the notices", rate);
            phases(r, run, handedAt, applied, arrivals);
            r.add("background batches pushed back by ingest", load.pushedBack.get());
            r.add("notices pushed back by ingest and handed again", resent);
            r.write("milliseconds for latencies (" + NOTICES + " notices after " + WARM_UP
                    + " warm-up), as named otherwise");
            assertThat(rate).as("background rate").isGreaterThan(BACKGROUND_PER_SECOND * 0.9);
        } finally {
            load.stop.set(true);
            loader.join(10_000);
            stop.set(true);
            consumer.join(10_000);
            policies.update(
                    PolicyName.NOTICE_CHECKPOINT_DRAIN,
                    before.mode(),
                    before.overrides(),
                    Caller.unrestricted("reaction-benchmark"));
        }
    }

    /**
     * Where the time goes, per notice: ingest and the model's queue (handed to applied), the policy's submission (applied
     * to the action's creation: idempotency look-up, planning on the model, insert), the executor's start (creation to
     * the first step's start: scheduling, state transition), the first step (its start to the command's CreateTime:
     * step record, model reads, hand-off to the producer).
     */
    private void phases(
            BenchmarkReport r, String run, long[] handedAt, Map<String, Long> applied, Map<String, long[]> arrivals) {
        List<Long> ingest = new ArrayList<>();
        List<Long> policy = new ArrayList<>();
        List<Long> executor = new ArrayList<>();
        List<Long> step = new ArrayList<>();
        for (int i = WARM_UP; i < handedAt.length; i++) {
            String node = node(run, i);
            ActionView a =
                    actions
                            .list(new ActionQuery(ActionKind.DRAIN, null, node, null, null, null, 1, null))
                            .items()
                            .stream()
                            .findFirst()
                            .flatMap(v -> actions.find(v.id()))
                            .orElse(null);
            Long at = applied.get(node);
            long[] arrived = arrivals.get(job(run, i));
            if (a == null || at == null || arrived == null || a.steps().isEmpty()) {
                continue;
            }
            long createdAt = a.createdAt().toEpochMilli();
            long stepAt = a.steps().get(0).startedAt().toEpochMilli();
            ingest.add(at - handedAt[i]);
            policy.add(createdAt - at);
            executor.add(stepAt - createdAt);
            step.add(arrived[0] - stepAt);
        }
        report(r, "phase 1, handed to applied to the model", ingest);
        report(r, "phase 2, applied to action created (policy submit)", policy);
        report(r, "phase 3, action created to first step started (executor)", executor);
        report(r, "phase 4, first step started to command CreateTime", step);
    }

    private static void report(BenchmarkReport r, String what, List<Long> latencies) {
        List<Long> s = new ArrayList<>(latencies);
        s.sort(Long::compare);
        String name = what.startsWith("phase") ? what : "notice handed to ingest " + what;
        r.add(name + ": p50", s.get(s.size() / 2));
        r.add(name + ": p99", s.get((int) Math.ceil(s.size() * 0.99) - 1));
        r.add(name + ": max", s.get(s.size() - 1));
    }

    private static String node(String run, int i) {
        return "rb-" + run + "-n" + i;
    }

    private static String job(String run, int i) {
        return "reaction-bench/rb-" + run + "-j" + i;
    }

    /** A ready spot node and a running elastic job whose eight ranks are on it. */
    private static List<Event> nodeWithJob(String node, String job) {
        List<Event> out = new ArrayList<>();
        out.add(event(
                node,
                EventType.NODE_REGISTERED,
                new NodeData.Registered(
                        POOL, CapacityType.SPOT, "us-east-1a", "p5.48xlarge", 8, "aws:///us-east-1a/i-" + node)));
        out.add(event(node, EventType.NODE_READY, new NodeData.Ready()));
        out.add(event(
                job,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("reaction-bench", "alice", "high", new ElasticPolicy(1, 2, 8, 3), 8, 1800L)));
        out.add(event(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue")));
        out.add(event(
                job,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run-1", 1, 8, List.of(new TrainerData.Participant(node, 0, 8)))));
        out.add(event(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 120.0, 250000.0)));
        return out;
    }

    private static Event event(String subject, EventType type, EventData data) {
        return new Event(java.util.UUID.randomUUID().toString(), "bench/fleet", type, subject, Instant.now(), data);
    }

    /** Records, per job, the CreateTime of its first command and when it was received. */
    private static void ensureTopic() throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaResource.bootstrapServers()))) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void consume(String run, Map<String, long[]> arrivals, AtomicBoolean stop, CountDownLatch assigned) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaResource.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reaction-bench-" + run);
        // From the start of the topic (a fresh group), keeping only this run's jobs: no command is missed while the
        // group forms.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(TOPIC));
            while (!stop.get()) {
                if (!c.assignment().isEmpty()) {
                    assigned.countDown();
                }
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(50))) {
                    long now = System.currentTimeMillis();
                    String key = rec.key() == null ? "" : new String(rec.key(), StandardCharsets.UTF_8);
                    arrivals.putIfAbsent(key, new long[] {rec.timestamp(), now});
                }
            }
        }
    }

    /** 20,000 events/s in batches of 200: 90% GPU samples over 2,000 nodes, 10% cordons and checkpoints. */
    static final class Background implements Runnable {

        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong pushedBack = new AtomicLong();
        private final IngestGateway gateway;
        private final String run;
        private long n;

        Background(IngestGateway gateway, String run) {
            this.gateway = gateway;
            this.run = run;
        }

        @Override
        @SuppressWarnings("FutureReturnValueIgnored") // the callback is the handling
        public void run() {
            long periodNanos = TimeUnit.SECONDS.toNanos(1) * BATCH / BACKGROUND_PER_SECOND;
            long next = System.nanoTime();
            while (!stop.get()) {
                List<Event> batch = new ArrayList<>(BATCH);
                Instant now = Instant.now();
                for (int k = 0; k < BATCH; k++) {
                    batch.add(next(now));
                }
                CompletableFuture<IngestReceipt> f = gateway.submit(batch).toCompletableFuture();
                f.whenComplete((ok, error) -> {
                    if (error == null) {
                        accepted.addAndGet(BATCH);
                    } else {
                        pushedBack.incrementAndGet();
                    }
                });
                next += periodNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
        }

        private Event next(Instant now) {
            long i = n++;
            String id = "bg-" + run + "-" + i;
            if (i % 10 != 9) {
                int gpu = (int) (i % 16_000);
                return new Event(
                        id,
                        "bench/dcgm",
                        EventType.GPU_SAMPLE,
                        "bg-node-" + gpu / 8,
                        now,
                        new GpuData.Sample(
                                "GPU-bg-" + gpu,
                                gpu % 8,
                                null,
                                (double) (i % 100),
                                40960.0,
                                null,
                                40.0 + i % 40,
                                350.5,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
            }
            if (i % 20 == 9) {
                return new Event(
                        id,
                        "bench/k8s",
                        EventType.NODE_CORDONED,
                        "bg-node-" + (i / 10) % 2000,
                        now,
                        new NodeData.Cordoned("bench"));
            }
            return new Event(
                    id,
                    "bench/trainer",
                    EventType.TRAINER_CHECKPOINT_COMPLETED,
                    "bg-team-" + (i % 7) + "/job-" + (i / 20) % 500,
                    now,
                    new TrainerData.CheckpointCompleted(
                            "ck-" + i, i, 1_000_000L, 31.5, 12.0, "s3://ckpt/" + i, null, null, false, null));
        }
    }
}
