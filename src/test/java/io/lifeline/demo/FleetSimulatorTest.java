package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.codec.EventCodec;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FleetSimulatorTest {

    private static final Instant START = TestScenarios.START;

    private static List<Event> run(Scenario s, Duration d) {
        return new FleetSimulator(s, START).advanceTo(START.plus(d));
    }

    @Test
    void sameSeedAndScenarioGiveExactlyTheSameEvents() {
        Scenario s = TestScenarios.builtIn();
        List<Event> a = run(s, Duration.ofMinutes(60));
        List<Event> b = run(s, Duration.ofMinutes(60));
        assertThat(a).hasSizeGreaterThan(10_000);
        assertThat(b).isEqualTo(a);
    }

    @Test
    void advancingTickByTickGivesTheSameEventsAsOneLeap() {
        Scenario s = TestScenarios.builtIn();
        List<Event> leap = run(s, Duration.ofMinutes(20));
        FleetSimulator sim = new FleetSimulator(s, START);
        List<Event> ticks = new ArrayList<>();
        for (long ms = 0; ms <= Duration.ofMinutes(20).toMillis(); ms += 250) {
            ticks.addAll(sim.advanceTo(START.plusMillis(ms)));
        }
        assertThat(ticks).isEqualTo(leap);
    }

    @Test
    void aFleetResumedAfterAPauseGoesOnAsIfNothingHappenedMeanwhileOnlyLater() {
        Scenario s = TestScenarios.builtIn();
        Duration pause = Duration.ofHours(3);
        List<Event> straight = run(s, Duration.ofMinutes(20));
        FleetSimulator sim = new FleetSimulator(s, START);
        // Paused before the scripted first notice (at 2 minutes): it comes 2 minutes into the fleet's time.
        List<Event> paused = new ArrayList<>(sim.advanceTo(START.plus(Duration.ofMinutes(1))));
        int before = paused.size();
        sim.resumeAt(START.plus(Duration.ofMinutes(1)).plus(pause));
        assertThat(sim.now()).isEqualTo(START.plus(Duration.ofMinutes(1)).plus(pause));
        paused.addAll(sim.advanceTo(START.plus(Duration.ofMinutes(20)).plus(pause)));

        assertThat(paused).hasSameSizeAs(straight);
        assertThat(paused.subList(0, before)).isEqualTo(straight.subList(0, before));
        for (int i = before; i < straight.size(); i++) {
            Event a = straight.get(i);
            Event b = paused.get(i);
            assertThat(b.id()).isEqualTo(a.id());
            assertThat(b.time()).isEqualTo(a.time().plus(pause));
            if (a.data() instanceof io.lifeline.domain.event.NodeData.InterruptionNotice n) {
                assertThat(((io.lifeline.domain.event.NodeData.InterruptionNotice) b.data()).deadline())
                        .isEqualTo(n.deadline().plus(pause));
            } else {
                assertThat(b.data()).isEqualTo(a.data());
            }
        }
        assertThat(straight.subList(before, straight.size()))
                .extracting(Event::type)
                .contains(EventType.NODE_INTERRUPTION_NOTICE);
    }

    @Test
    void anotherSeedGivesAnotherRun() {
        Scenario s = TestScenarios.builtIn();
        List<Event> a = run(s, Duration.ofMinutes(30));
        List<Event> b = run(TestScenarios.withSeed(s, s.seed() + 1), Duration.ofMinutes(30));
        assertThat(b).isNotEqualTo(a);
    }

    @Test
    void eventsComeInTimeOrderWithUniqueIdsAndNothingAfterTheTarget() {
        FleetSimulator sim = new FleetSimulator(TestScenarios.builtIn(), START);
        Set<String> ids = new HashSet<>();
        Instant last = START;
        for (int minute = 1; minute <= 30; minute++) {
            Instant until = START.plus(Duration.ofMinutes(minute));
            for (Event e : sim.advanceTo(until)) {
                assertThat(e.time()).isAfterOrEqualTo(last).isBeforeOrEqualTo(until);
                assertThat(ids.add(e.id())).as("id %s unique", e.id()).isTrue();
                assertThat(e.source()).startsWith("lifeline-demo/");
                last = e.time();
            }
            assertThat(sim.now()).isEqualTo(until);
        }
    }

    @Test
    void runsStartedAtDifferentInstantsDoNotShareEventIds() {
        Scenario s = TestScenarios.builtIn();
        Event a = new FleetSimulator(s, START).advanceTo(START).get(0);
        Event b = new FleetSimulator(s, START.plusSeconds(1))
                .advanceTo(START.plusSeconds(1))
                .get(0);
        assertThat(a.id()).isNotEqualTo(b.id());
    }

    @Test
    void subjectsFollowTheCatalogueNodesForNodeAndGpuEventsJobsForTheRest() {
        Scenario s = TestScenarios.builtIn();
        Set<String> jobKeys = new HashSet<>();
        s.jobs().forEach(j -> jobKeys.add(j.key()));
        Set<String> registered = new HashSet<>();
        for (Event e : run(s, Duration.ofMinutes(30))) {
            if (e.type() == EventType.NODE_REGISTERED) {
                registered.add(e.subject());
            }
            if (e.type().family().subjectIsNode()) {
                assertThat(registered).contains(e.subject());
            } else {
                assertThat(jobKeys).contains(e.subject());
            }
        }
    }

    @Test
    void everyEventRoundTripsThroughTheCloudEventsCodec() {
        EventCodec codec = new EventCodec();
        FleetSimulator sim = new FleetSimulator(TestScenarios.builtIn(), START);
        List<Event> events = new ArrayList<>(sim.advanceTo(START.plus(Duration.ofMinutes(5))));
        sim.requestCheckpoint("cmd-1", "research/llama3-70b-pretrain", START.plus(Duration.ofMinutes(30)));
        sim.requestRescale("cmd-2", "vision/vit-g14-clip", 99);
        sim.suspend("cmd-3", "speech/whisper-large-v3-ft");
        events.addAll(sim.advanceTo(START.plus(Duration.ofMinutes(15))));
        sim.resume("cmd-4", "speech/whisper-large-v3-ft");
        events.addAll(sim.advanceTo(START.plus(Duration.ofMinutes(20))));
        // Telemetry is the bulk and has two shapes: all of it for 20 minutes, then lifecycle events up to 2 hours.
        for (Event e : sim.advanceTo(START.plus(Duration.ofHours(2)))) {
            if (!e.isTelemetry()) {
                events.add(e);
            }
        }
        Set<EventType> seen = EnumSet.noneOf(EventType.class);
        List<String> mismatches = new ArrayList<>();
        for (Event e : events) {
            JsonNode wire = codec.encodeEvent(e);
            // Through bytes as well for lifecycle events; the bulk telemetry goes object to object.
            Event back = codec.decodeEvent(e.isTelemetry() ? wire : codec.parse(codec.toBytes(wire)));
            if (!back.equals(e) && mismatches.size() < 5) {
                mismatches.add(wire + " decoded as " + back);
            }
            seen.add(e.type());
        }
        assertThat(mismatches).isEmpty();
        assertThat(seen)
                .contains(
                        EventType.NODE_REGISTERED,
                        EventType.NODE_READY,
                        EventType.NODE_INTERRUPTION_NOTICE,
                        EventType.NODE_CORDONED,
                        EventType.NODE_TERMINATED,
                        EventType.GPU_SAMPLE,
                        EventType.GPU_XID,
                        EventType.JOB_SUBMITTED,
                        EventType.WORKLOAD_ADMITTED,
                        EventType.TRAINER_RENDEZVOUS,
                        EventType.TRAINER_WORKER_FAILED,
                        EventType.TRAINER_RESTARTED,
                        EventType.TRAINER_PROGRESS,
                        EventType.TRAINER_CHECKPOINT_STARTED,
                        EventType.TRAINER_CHECKPOINT_COMPLETED,
                        EventType.TRAINER_CHECKPOINT_VERIFIED,
                        EventType.TRAINER_RESTORED,
                        EventType.TRAINER_COMMAND_ACK,
                        EventType.NODE_NOT_READY,
                        EventType.WORKLOAD_EVICTED);
    }

    @Test
    void refusesAScenarioWithProblemsNamingThem() {
        Scenario s = TestScenarios.quiet();
        Scenario bad = new Scenario(1, 0, 10, 0, 0, 300, 900, null, s.pools(), s.jobs());
        assertThatThrownBy(() -> new FleetSimulator(bad, START))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("telemetryIntervalSeconds: must be >= 1, got 0");
    }

    @Test
    void commandsNeedAnIdAndAJobName() {
        FleetSimulator sim = new FleetSimulator(TestScenarios.quiet(), START);
        assertThatThrownBy(() -> sim.requestCheckpoint(" ", "team/big", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sim.suspend("c", "not a subject")).isInstanceOf(IllegalArgumentException.class);
    }
}
