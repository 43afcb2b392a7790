package io.lifeline.domain.job;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeSignal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Random but well-typed input streams for two jobs on four nodes: every catalogue event of the job
 * families, node signals, late events (time going back up to 5 minutes) and redeliveries of earlier
 * events (same source and id).
 */
final class RandomStreams {

    static final Instant BASE = Instant.parse("2024-05-01T08:00:00Z");
    static final String[] JOBS = {"a/j1", "b/j2"};
    private static final int KINDS = 33;

    private RandomStreams() {}

    /** One generated step, translated into an input by {@link #build}. */
    record Step(int kind, int job, int node, int delta, int a, int b) {}

    static Arbitrary<List<Step>> steps(int maxSize) {
        Arbitrary<Integer> delta = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.integers().between(0, 600)),
                Tuple.of(2, Arbitraries.integers().between(-300, -1)));
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.integers().between(0, KINDS - 1),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(1, 4),
                        delta,
                        Arbitraries.integers().between(0, 9),
                        Arbitraries.integers().between(0, 9))
                .as(Step::new);
        return step.list().ofMinSize(40).ofMaxSize(maxSize);
    }

    static TestNodes nodes() {
        return new TestNodes()
                .add("n1", "pool-a", CapacityType.SPOT, 8)
                .add("n2", "pool-a", CapacityType.SPOT, 8)
                .add("n3", "pool-b", CapacityType.ON_DEMAND, 8);
        // n4 is deliberately unknown to the directory
    }

    /** Inputs are {@link Event}s or {@link NodeSignal}s. */
    static List<Object> build(List<Step> steps) {
        List<Object> out = new ArrayList<>();
        Instant t = BASE;
        int ids = 0;
        long[] stepCounter = new long[JOBS.length];
        for (Step s : steps) {
            t = t.plusSeconds(s.delta());
            String job = JOBS[s.job()];
            String node = "n" + s.node();
            String ckpt = "c" + (s.b() % 5);
            stepCounter[s.job()] += s.a() == 0 ? -50 : 10 * s.a();
            long trainStep = Math.max(0, stepCounter[s.job()]);
            EventType type;
            EventData data;
            switch (s.kind()) {
                case 0 -> {
                    type = EventType.JOB_SUBMITTED;
                    data = new JobData.Submitted(
                            job.substring(0, 1),
                            "o",
                            "p",
                            new ElasticPolicy(1, 4, 8, 2),
                            8,
                            s.a() == 0 ? null : 600L * s.a());
                }
                case 1 -> {
                    type = EventType.JOB_UPDATED;
                    data = new JobData.Updated(null, null, s.a() == 0 ? null : s.a(), 300L * (s.b() + 1));
                }
                case 2 -> {
                    type = EventType.WORKLOAD_ADMITTED;
                    data = new SchedulerData.Admitted("wl", null);
                }
                case 3 -> {
                    type = EventType.WORKLOAD_PREEMPTED;
                    data = new SchedulerData.Preempted("prio", "x/y", 10, 1);
                }
                case 4 -> {
                    type = EventType.WORKLOAD_EVICTED;
                    data = new SchedulerData.Evicted(
                            s.a() % 3 == 0 ? "Preempted" : s.a() % 3 == 1 ? "NodeFailures" : "Deactivated");
                }
                case 5 -> {
                    type = EventType.WORKLOAD_REQUEUED;
                    data = new SchedulerData.Requeued(null);
                }
                case 6 -> {
                    type = EventType.POD_EVICTED;
                    data = new SchedulerData.PodEvicted("pod", node, "drain");
                }
                case 7, 8 -> {
                    type = EventType.TRAINER_RENDEZVOUS;
                    List<TrainerData.Participant> ps = new ArrayList<>();
                    int count = s.a() % 4 + 1;
                    for (int i = 0; i < count; i++) {
                        ps.add(new TrainerData.Participant("n" + ((s.node() - 1 + i) % 4 + 1), i * 8, 8));
                    }
                    data = new TrainerData.Rendezvous("r", s.b(), count * 8, ps);
                }
                case 9 -> {
                    type = EventType.TRAINER_WORKER_FAILED;
                    data = new TrainerData.WorkerFailed("r", s.a(), s.b() == 0 ? null : node, 1, "boom");
                }
                case 10 -> {
                    type = EventType.TRAINER_RESTARTED;
                    data = new TrainerData.Restarted("r", s.a(), null);
                }
                case 11, 12, 13, 14, 15, 16, 17 -> {
                    type = EventType.TRAINER_PROGRESS;
                    data = new TrainerData.Progress(trainStep, null, null);
                }
                case 18 -> {
                    type = EventType.TRAINER_CHECKPOINT_STARTED;
                    data = new TrainerData.CheckpointStarted(ckpt, trainStep, s.a() % 3 == 0);
                }
                case 19, 20 -> {
                    type = EventType.TRAINER_CHECKPOINT_COMPLETED;
                    data = new TrainerData.CheckpointCompleted(
                            ckpt, trainStep, null, 10.0 * s.a(), 5.0 * s.a(), null, null, null, s.a() % 3 == 0, null);
                }
                case 21 -> {
                    type = EventType.TRAINER_CHECKPOINT_FAILED;
                    data = new TrainerData.CheckpointFailed(ckpt, trainStep, "io");
                }
                case 22 -> {
                    type = EventType.TRAINER_CHECKPOINT_VERIFIED;
                    data = new TrainerData.CheckpointVerified(ckpt, s.a() != 0, null);
                }
                case 23 -> {
                    type = EventType.TRAINER_RESTORED;
                    data = new TrainerData.Restored(s.b() == 0 ? "" : ckpt, s.b() == 0 ? 0 : trainStep, "r");
                }
                case 24 -> {
                    if (s.a() != 0 || s.b() > 2) {
                        continue;
                    }
                    type = EventType.JOB_FINISHED;
                    data = new JobData.Finished(JobData.Outcome.values()[s.b()], null);
                }
                case 25 -> {
                    out.add(new NodeSignal(
                            node,
                            t,
                            NodeSignal.Kind.INTERRUPTION_NOTICE,
                            NoticeKind.values()[s.a() % 4],
                            s.b() == 0 ? null : t.plusSeconds(30L * s.b()),
                            null));
                    continue;
                }
                case 26, 27, 28, 29 -> {
                    NodeSignal.Kind kind = s.kind() == 26
                            ? NodeSignal.Kind.TERMINATED
                            : s.kind() == 27
                                    ? NodeSignal.Kind.NOT_READY
                                    : s.kind() == 28 ? NodeSignal.Kind.READY : NodeSignal.Kind.GPU_FAILED;
                    out.add(new NodeSignal(node, t, kind, null, null, null));
                    continue;
                }
                case 31 -> {
                    type = EventType.JOB_HANG_SUSPECTED;
                    data = new JobData.HangSuspected(
                            s.b() % 2 == 0 ? "training" : "save",
                            t.minusSeconds(20L * s.a()),
                            20.0 * s.a(),
                            30,
                            "a floor",
                            null,
                            List.of(new JobData.HangSuspect(s.b(), node, null, trainStep, "odd")),
                            List.of());
                }
                case 32 -> {
                    type = EventType.TRAINER_STEP_TIMES;
                    data = new TrainerData.StepTimes(
                            s.b(),
                            null,
                            node,
                            0,
                            trainStep,
                            0,
                            null,
                            null,
                            5.0 * s.b(),
                            s.a() % 2 == 0 ? "training" : "saving",
                            3.0 * s.a());
                }
                default -> {
                    if (!out.isEmpty()) {
                        out.add(out.get(Math.max(0, out.size() - 1 - s.a())));
                    }
                    continue;
                }
            }
            out.add(new Event(
                    "id-" + (++ids), "test://" + type.family().name().toLowerCase(Locale.ROOT), type, job, t, data));
        }
        return out;
    }

    static void apply(Jobs jobs, Object input) {
        if (input instanceof Event e) {
            jobs.apply(e);
        } else {
            jobs.onNodeSignal((NodeSignal) input);
        }
    }

    /** The latest time in the inputs. */
    static Instant latest(List<Object> inputs) {
        Instant max = BASE;
        for (Object o : inputs) {
            Instant t = o instanceof Event e ? e.time() : ((NodeSignal) o).time();
            max = t.isAfter(max) ? t : max;
        }
        return max;
    }
}
