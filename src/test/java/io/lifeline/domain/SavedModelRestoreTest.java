package io.lifeline.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobTimelineEntry;
import io.lifeline.domain.job.history.HistoryRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint restores the model it was taken from: run a simulated fleet (notices, terminations, XIDs, failures,
 * restores, rescales, suspensions, with redelivered and late events mixed in), save the model at some point, restore
 * the save into a fresh model, and apply the rest of the stream to both. Every read then answers the same on both
 * (fleet snapshot, GPUs, job details, incidents, timelines, checkpoints, goodput, advice), they hand over the same
 * history for storage, and saving both again gives equal states.
 */
class SavedModelRestoreTest {

    private static final Instant START = Instant.parse("2026-01-31T12:00:00Z");
    private static final List<String> JOBS = List.of("storm/a", "storm/b", "storm/c");

    /** A drain of a node by an action: the one change of the model that is not an event. */
    private record MarkDraining(String node, Instant at) {}

    /** One live model as the application runs it, with what it handed over for storage since {@link #record}. */
    private static final class Live {
        final Fleet fleet;
        final LifelineModel model;
        final List<JobTimelineEntry> timeline = new ArrayList<>();
        final List<HistoryRecord> records = new ArrayList<>();
        boolean record;

        Live(Clock clock) {
            fleet = new Fleet(clock);
            model = new LifelineModel(fleet, clock);
        }

        void apply(Object input, boolean drain) {
            if (input instanceof Event e) {
                model.apply(e);
            } else if (input instanceof MarkDraining d) {
                fleet.markDraining(d.node(), d.at());
            }
            if (drain) {
                List<JobTimelineEntry> t = model.jobs().drainTimeline();
                List<HistoryRecord> r = model.jobs().drainRecords();
                if (record) {
                    timeline.addAll(t);
                    records.addAll(r);
                }
            }
        }

        SavedModel save() {
            return new SavedModel(fleet.save(), model.jobs().save());
        }

        static Live restored(SavedModel saved, Clock clock) {
            Live l = new Live(clock);
            l.fleet.restore(saved.fleet());
            l.model.jobs().restore(saved.jobs());
            return l;
        }

        ModelReads reads() {
            return ModelReads.of(fleet, model.jobs());
        }
    }

    @Property(tries = 25)
    void restoringAndApplyingTheRestReadsLikeApplyingEverything(
            @ForAll @LongRange(min = 1, max = 10_000) long seed, @ForAll @DoubleRange(min = 0, max = 1) double cut) {
        List<Object> stream = stormyStream(seed, 90);
        checkRestoreAt(stream, (int) Math.round(cut * stream.size()), seed, "seed " + seed + ", cut " + cut);
    }

    @Test
    void theBuiltInScenarioRestoresAtAnyHour() {
        List<Object> stream = new ArrayList<>();
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), START);
        stream.addAll(sim.advanceTo(START.plus(Duration.ofHours(3))));
        for (int hour = 0; hour <= 3; hour++) {
            int cut = (int) ((long) stream.size() * hour / 3);
            checkRestoreAt(stream, cut, hour, "built-in scenario, cut at hour " + hour);
        }
    }

    @Test
    void aRestoredModelSavesAsTheStateItWasRestoredFrom() {
        List<Object> stream = stormyStream(7, 60);
        Clock clock = Clock.fixed(START.plus(Duration.ofMinutes(61)), ZoneOffset.UTC);
        Live live = new Live(clock);
        stream.forEach(input -> live.apply(input, false));
        SavedModel saved = live.save();
        assertThat(saved.jobs().jobs()).hasSize(3);
        assertThat(saved.jobs().jobs())
                .anySatisfy(j -> assertThat(j.incidents().closed()).isNotEmpty());
        assertThat(saved.fleet().nodes())
                .anySatisfy(n -> assertThat(n.interruptions()).isNotEmpty());
        assertThat(saved.fleet().nodes())
                .anySatisfy(n -> assertThat(n.gpus())
                        .anySatisfy(g -> assertThat(g.xidTimes()).isNotEmpty()));
        Live restored = Live.restored(saved, clock);
        assertThat(canonical(restored.save())).isEqualTo(canonical(saved));
        live.reads().assertSameAs(restored.reads(), "right after the restore");
    }

    private static void checkRestoreAt(List<Object> stream, int cut, long seed, String context) {
        Instant end = latest(stream);
        Clock clock = Clock.fixed(end.plus(Duration.ofMinutes(1)), ZoneOffset.UTC);
        // The application hands history over after every event; here some points are skipped, so a save can also
        // hold what is still waiting to be handed over.
        SplittableRandom drains = new SplittableRandom(seed * 7919);
        boolean[] drain = new boolean[stream.size()];
        for (int i = 0; i < drain.length; i++) {
            drain[i] = drains.nextInt(4) != 0;
        }
        Live whole = new Live(clock);
        for (int i = 0; i < cut; i++) {
            whole.apply(stream.get(i), drain[i]);
        }
        Live restored = Live.restored(whole.save(), clock);
        whole.record = true;
        restored.record = true;
        for (int i = cut; i < stream.size(); i++) {
            whole.apply(stream.get(i), drain[i]);
            restored.apply(stream.get(i), drain[i]);
        }
        whole.apply(null, true);
        restored.apply(null, true);
        whole.reads().assertSameAs(restored.reads(), context);
        assertThat(restored.timeline).as("%s: timeline handed over", context).isEqualTo(whole.timeline);
        assertThat(restored.records)
                .as("%s: incidents and checkpoints handed over", context)
                .isEqualTo(whole.records);
        assertThat(canonical(restored.save())).as("%s: saved again", context).isEqualTo(canonical(whole.save()));
    }

    private static SavedModel canonical(SavedModel m) {
        return ModelReads.canonical(m.fleet(), m.jobs());
    }

    private static Instant latest(List<Object> stream) {
        Instant t = START;
        for (Object o : stream) {
            if (o instanceof Event e && e.time().isAfter(t)) {
                t = e.time();
            }
        }
        return t;
    }

    /** The stormy fleet of the simulator's own tests under random commands, with redeliveries, late events and drains. */
    static List<Object> stormyStream(long seed, int minutes) {
        FleetSimulator sim = new FleetSimulator(stormy(seed), START);
        SplittableRandom r = new SplittableRandom(seed);
        List<Object> out = new ArrayList<>();
        List<Event> seen = new ArrayList<>();
        for (int minute = 1; minute <= minutes; minute++) {
            randomCommand(sim, r, minute);
            for (Event e : sim.advanceTo(START.plus(Duration.ofMinutes(minute)))) {
                out.add(e);
                seen.add(e);
                if (r.nextInt(40) == 0) {
                    out.add(seen.get(r.nextInt(seen.size())));
                }
                if (r.nextInt(150) == 0) {
                    Event late = seen.get(r.nextInt(seen.size()));
                    out.add(new Event(
                            late.id() + "-late",
                            late.source(),
                            late.type(),
                            late.subject(),
                            e.time().minusSeconds(r.nextInt(1, 600)),
                            late.data()));
                }
                if (e.type() == EventType.NODE_READY && r.nextInt(20) == 0) {
                    out.add(new MarkDraining(e.subject(), e.time()));
                }
            }
        }
        return out;
    }

    private static Scenario stormy(long seed) {
        Scenario.Checkpointing async = new Scenario.Checkpointing(240, 10, true, 50, 200, 20, "s3://storm/ckpt", 0.1);
        Scenario.Checkpointing sync = new Scenario.Checkpointing(180, 6, false, 6, 20, 10, "s3://storm/ckpt", 0.05);
        return new Scenario(
                seed,
                60,
                10,
                0.4,
                0.6,
                240,
                600,
                60L,
                List.of(
                        new Scenario.Pool("spot", CapacityType.SPOT, "z1", "p5.48xlarge", null, 8, 8, 1.0, 120),
                        new Scenario.Pool("od", CapacityType.ON_DEMAND, "z2", "a2-highgpu-8g", null, 5, 8, 0, 30)),
                List.of(
                        new Scenario.Job(
                                "storm",
                                "a",
                                null,
                                null,
                                null,
                                List.of("spot"),
                                3,
                                6,
                                8,
                                1000,
                                0,
                                500,
                                2.0,
                                256,
                                2048,
                                async),
                        new Scenario.Job(
                                "storm", "b", null, null, null, List.of(), 1, 4, 8, 1000, 20, 0, 1.0, 64, 0, sync),
                        new Scenario.Job(
                                "storm",
                                "c",
                                null,
                                null,
                                null,
                                List.of("od"),
                                2,
                                3,
                                4,
                                1000,
                                0,
                                10,
                                0.5,
                                32,
                                0,
                                sync)));
    }

    private static void randomCommand(FleetSimulator sim, SplittableRandom r, int minute) {
        String job = JOBS.get(r.nextInt(JOBS.size()));
        String id = "cmd-" + minute;
        switch (r.nextInt(6)) {
            case 0 -> sim.requestCheckpoint(id, job, sim.now().plusSeconds(r.nextInt(5, 200)));
            case 1 -> sim.requestRescale(id, job, r.nextInt(1, 7));
            case 2 -> sim.suspend(id, job);
            case 3 -> sim.resume(id, job);
            default -> {}
        }
    }
}
