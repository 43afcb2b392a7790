package io.lifeline.domain.replay;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Replays a job's interruptions through the real jobs model under one scenario: the job trains from the start of its
 * window, saves every τ of training (a synchronous save blocking for C), and at each interruption stops, recovers for
 * the interruption's recovery time (restart, new group, restore of the newest completed save, progress: a quarter of
 * it each) and trains again with its save timer started anew. A save cut short by an interruption is not a good
 * checkpoint. With the notice policy on, an interruption announced at least C ahead starts a save at the notice and
 * the job is drained (stopped) when it completes, so it loses no work; without the policy, or with a lead shorter
 * than C, the notice changes nothing. An interruption during a recovery starts the recovery again.
 *
 * <p>The events are generated as the replay goes (nothing but the model is held), and the model's goodput at the
 * end of the window is the scenario's answer.
 */
public final class WhatIfSimulator {

    private static final String SOURCE = "whatif://simulator";

    private final TracePlayer player;
    private final String job;
    private final int gpus;
    private final int nodes;
    private final BooleanSupplier stop;
    private final List<Event> batch = new ArrayList<>();
    private long ids;
    private long step;
    private int round = 1;
    private int checkpoints;
    private String lastGood;
    private long lastGoodStep;

    private WhatIfSimulator(Instant start, String job, int gpus, int nodes, BooleanSupplier stop) {
        this.player = new TracePlayer(start);
        this.job = job;
        this.gpus = Math.max(1, gpus);
        this.nodes = Math.max(1, Math.min(nodes, this.gpus));
        this.stop = stop;
    }

    /** Upper bound of the events a scenario replays: two per save, six per interruption, a few more. */
    public static long events(double windowSeconds, double tau, double c, int interruptions) {
        return (long) Math.ceil(2 * windowSeconds / (tau + c)) + 6L * interruptions + 8;
    }

    /**
     * The goodput of one scenario.
     *
     * @param interruptions  in time order; each stop at or after {@code start}
     * @param finished       whether the job ended at {@code end} (else it is still running then)
     * @param stop           asked every few thousand events; true cancels with {@link ReplayCancelledException}
     */
    public static GoodputView run(
            String job,
            Instant start,
            Instant end,
            boolean finished,
            int gpus,
            int nodes,
            List<ReplayInterruption> interruptions,
            WhatIfScenario s,
            BooleanSupplier stop) {
        WhatIfSimulator sim = new WhatIfSimulator(start, job, gpus, nodes, stop);
        return sim.replay(start.toEpochMilli(), end.toEpochMilli(), finished, interruptions, s);
    }

    private GoodputView replay(
            long startMs, long endMs, boolean finished, List<ReplayInterruption> interruptions, WhatIfScenario s) {
        long tau = Math.max(1, Math.round(s.intervalSeconds() * 1000));
        long c = Math.max(0, Math.round(s.checkpointCostSeconds() * 1000));
        int perNode = Math.max(1, gpus / nodes);
        emit(
                startMs,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(
                        namespace(),
                        null,
                        null,
                        new ElasticPolicy(nodes, nodes, perNode, Integer.MAX_VALUE / 2),
                        perNode,
                        tau / 1000));
        emit(startMs, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted(job, null));
        emit(startMs, EventType.TRAINER_RENDEZVOUS, rendezvous(perNode));
        emit(startMs, EventType.TRAINER_PROGRESS, new TrainerData.Progress(step, null, null));
        long segment = startMs;
        long clock = startMs;
        int next = 0;
        while (true) {
            ReplayInterruption i = next < interruptions.size() ? interruptions.get(next) : null;
            long at = i == null ? Long.MAX_VALUE : Math.max(i.stoppedAt().toEpochMilli(), clock);
            if (at >= endMs) {
                clock = saves(segment, clock, endMs, tau, c, endMs);
                break;
            }
            Long lead = s.noticeLeadSeconds() != null && i.noticeLeadMillis() != null
                    ? Long.valueOf(Math.round(s.noticeLeadSeconds() * 1000))
                    : i.noticeLeadMillis();
            long notice = lead == null ? Long.MAX_VALUE : Math.max(clock, at - lead);
            boolean saveAtNotice = s.noticePolicy() && lead != null && notice + c <= at;
            long stopAt = at;
            if (saveAtNotice) {
                // a periodic save under way at the notice completes first
                clock = saves(segment, clock, notice, tau, c, Long.MAX_VALUE);
                long begin = Math.max(clock, notice);
                if (begin + c <= at) {
                    save(begin, c);
                    stopAt = begin + c;
                } else {
                    stopAt = Math.max(clock, at);
                }
            } else {
                clock = saves(segment, clock, at, tau, c, at);
            }
            emit(
                    stopAt,
                    EventType.TRAINER_WORKER_FAILED,
                    new TrainerData.WorkerFailed(
                            null,
                            0,
                            null,
                            null,
                            i.cause() == null
                                    ? "interruption"
                                    : i.cause().name().toLowerCase(Locale.ROOT)));
            long recovery = s.recoverySeconds() != null ? Math.round(s.recoverySeconds() * 1000) : i.recoveryMillis();
            long back = stopAt + Math.max(4, recovery);
            next++;
            // An interruption while recovering starts the recovery again.
            while (next < interruptions.size()
                    && interruptions.get(next).stoppedAt().toEpochMilli() < back
                    && interruptions.get(next).stoppedAt().toEpochMilli() < endMs) {
                ReplayInterruption again = interruptions.get(next++);
                long t = Math.max(stopAt, again.stoppedAt().toEpochMilli());
                emit(
                        t,
                        EventType.TRAINER_WORKER_FAILED,
                        new TrainerData.WorkerFailed(null, 0, null, null, "during recovery"));
                long r = s.recoverySeconds() != null ? Math.round(s.recoverySeconds() * 1000) : again.recoveryMillis();
                back = Math.max(back, t + Math.max(4, r));
            }
            if (back >= endMs) {
                clock = endMs;
                break;
            }
            recover(stopAt, back, perNode);
            segment = back;
            clock = back;
        }
        if (finished) {
            emit(endMs, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, null));
        }
        flush();
        player.advanceTo(Instant.ofEpochMilli(endMs));
        return player.jobs().goodput(job).orElseThrow();
    }

    /**
     * The periodic saves of the segment that began at {@code segment}, from {@code clock} until {@code until}; a save
     * still running at {@code cut} is started but never completes.
     *
     * @return the time the last save ended (or {@code clock})
     */
    private long saves(long segment, long clock, long until, long tau, long c, long cut) {
        long period = tau + c;
        long k = Math.max(0, (clock - segment - tau + period - 1) / period);
        long last = clock;
        while (true) {
            long begin = segment + tau + k * period;
            if (begin < clock) {
                k++;
                continue;
            }
            if (begin >= until) {
                return last;
            }
            if (begin + c > cut) {
                step += 1;
                emit(begin, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id(), step, false));
                return begin;
            }
            save(begin, c);
            last = begin + c;
            k++;
        }
    }

    private void save(long begin, long c) {
        step += 1;
        String id = id();
        emit(begin, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
        emit(
                begin + c,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id, step, null, c / 1000.0, c / 1000.0, "s3://whatif/" + id, null, null, false, gpus));
        lastGood = id;
        lastGoodStep = step;
    }

    private void recover(long stopAt, long back, int perNode) {
        long r = back - stopAt;
        emit(stopAt + r / 4, EventType.TRAINER_RESTARTED, new TrainerData.Restarted(null, round, null));
        round++;
        emit(stopAt + r / 2, EventType.TRAINER_RENDEZVOUS, rendezvous(perNode));
        if (lastGood != null) {
            emit(
                    stopAt + 3 * r / 4,
                    EventType.TRAINER_RESTORED,
                    new TrainerData.Restored(lastGood, lastGoodStep, null));
        }
        step = lastGood != null ? lastGoodStep : 0;
        emit(back, EventType.TRAINER_PROGRESS, new TrainerData.Progress(step, null, null));
    }

    private TrainerData.Rendezvous rendezvous(int perNode) {
        List<TrainerData.Participant> ps = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            ps.add(new TrainerData.Participant("whatif-node-" + n, n * perNode, perNode));
        }
        return new TrainerData.Rendezvous(null, round, nodes * perNode, ps);
    }

    private String id() {
        return "ckpt-" + (++checkpoints);
    }

    private String namespace() {
        int slash = job.indexOf('/');
        return slash > 0 ? job.substring(0, slash) : "whatif";
    }

    private void emit(long atMs, EventType type, EventData data) {
        batch.add(new Event("w" + (++ids), SOURCE, type, job, Instant.ofEpochMilli(atMs), data));
        if (batch.size() >= TracePlayer.CHECK_EVERY) {
            flush();
        }
    }

    private void flush() {
        player.apply(batch, stop);
        batch.clear();
    }
}
