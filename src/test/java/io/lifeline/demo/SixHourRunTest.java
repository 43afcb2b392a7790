package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.TrainerData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Six accelerated hours of the built-in scenario: everything the demo promises happens (notices,
 * terminations, shrinking, restores that lose work, XIDs, replacements, growth back to max) and the
 * invariants of a real fleet hold throughout.
 */
class SixHourRunTest {

    private static final Instant START = TestScenarios.START;
    private static final Set<Integer> FATAL_XIDS = Set.of(79, 48, 94, 95, 119);

    private static final List<Event> LIFECYCLE = new ArrayList<>();
    private static final List<String> TELEMETRY_PROBLEMS = new ArrayList<>();
    private static long busySamples;
    private static long idleSamples;

    @BeforeAll
    static void run() {
        // The built-in fleet with a seed of its own, whose six hours show every behaviour checked here (fatal XIDs,
        // several shrinks and growths back): the demo's seed gives other draws whenever the demo's contents change.
        FleetSimulator sim = new FleetSimulator(TestScenarios.withSeed(TestScenarios.builtIn(), 1L), START);
        Map<String, NodeData> nodeState = new HashMap<>();
        for (int minutes = 10; minutes <= 360; minutes += 10) {
            for (Event e : sim.advanceTo(START.plus(Duration.ofMinutes(minutes)))) {
                if (e.data() instanceof NodeData n) {
                    nodeState.put(e.subject(), n);
                }
                if (e.data() instanceof GpuData.Sample s) {
                    checkSample(e, s, nodeState.get(e.subject()));
                } else {
                    LIFECYCLE.add(e);
                }
            }
        }
    }

    private static void checkSample(Event e, GpuData.Sample s, NodeData state) {
        if (!(state instanceof NodeData.Ready
                || state instanceof NodeData.InterruptionNotice
                || state instanceof NodeData.Cordoned)) {
            problem("sample from a node that is " + state + ": " + e);
        }
        if (s.utilizationPercent() < 0
                || s.utilizationPercent() > 100
                || s.temperatureCelsius() < 20
                || s.temperatureCelsius() > 95
                || s.powerWatts() < 10
                || s.powerWatts() > 700) {
            problem("implausible sample " + e);
        }
        double total = s.memoryUsedMiB() + s.memoryFreeMiB();
        if (Math.abs(total - GpuModel.byName(s.model()).memoryMiB()) > 0.2) {
            problem("memory used + free is not the frame buffer: " + e);
        }
        if (s.pod() != null && s.utilizationPercent() > 80) {
            busySamples++;
            if (s.memoryUsedMiB() < total * 0.5 || s.powerWatts() < 250) {
                problem("busy GPU with little memory or power: " + e);
            }
        } else if (s.pod() == null && s.utilizationPercent() < 1) {
            idleSamples++;
            // Temperature lags behind (a GPU that just stopped is still warm); memory and power do not.
            if (s.memoryUsedMiB() > 64 || s.powerWatts() > 120) {
                problem("idle GPU that looks busy: " + e);
            }
        }
    }

    private static void problem(String p) {
        if (TELEMETRY_PROBLEMS.size() < 10) {
            TELEMETRY_PROBLEMS.add(p);
        }
    }

    private static List<Event> of(EventType type) {
        return LIFECYCLE.stream().filter(e -> e.type() == type).toList();
    }

    @Test
    void gpuSamplesArePlausibleForBusyAndIdleGpusAndComeOnlyFromLiveNodes() {
        assertThat(TELEMETRY_PROBLEMS).isEmpty();
        assertThat(busySamples).isGreaterThan(100_000);
        assertThat(idleSamples).isGreaterThan(1_000);
    }

    @Test
    void spotNoticesGiveTheirLeadTimeThenTheNodeIsCordonedAndTerminatedAtTheDeadline() {
        List<Event> notices = of(EventType.NODE_INTERRUPTION_NOTICE);
        assertThat(notices).hasSizeGreaterThan(10);
        assertThat(notices.get(0).time()).isBefore(START.plus(Duration.ofMinutes(3)));
        for (Event n : notices) {
            Instant deadline = ((NodeData.InterruptionNotice) n.data()).deadline();
            assertThat(deadline).isEqualTo(n.time().plusSeconds(120));
            Event cordoned = first(EventType.NODE_CORDONED, n.subject(), n.time());
            assertThat(cordoned.time()).isBefore(deadline);
            Event terminated = firstOrNull(EventType.NODE_TERMINATED, n.subject(), n.time());
            if (terminated != null) {
                assertThat(terminated.time()).isEqualTo(deadline);
            } else {
                assertThat(deadline).isAfter(START.plus(Duration.ofHours(6)));
            }
        }
    }

    @Test
    void replacementNodesRegisterAfterTerminations() {
        long replacements = of(EventType.NODE_REGISTERED).stream()
                .filter(e -> e.time().isAfter(START))
                .count();
        assertThat(replacements).isGreaterThan(5);
        Set<String> terminated = new HashSet<>();
        of(EventType.NODE_TERMINATED).forEach(e -> terminated.add(e.subject()));
        for (Event e : LIFECYCLE) {
            if (e.type().family().subjectIsNode() && e.type() != EventType.NODE_TERMINATED) {
                assertThat(terminated.contains(e.subject()) && e.time().isAfter(terminationOf(e.subject())))
                        .as("%s after the node was terminated", e)
                        .isFalse();
            }
        }
    }

    @Test
    void xidsAreRealCodesAndFatalOnesTakeTheNodeDown() {
        List<Event> xids = of(EventType.GPU_XID);
        assertThat(xids).isNotEmpty();
        int fatalNodeDown = 0;
        for (Event e : xids) {
            int code = ((GpuData.Xid) e.data()).xid();
            assertThat(code).isIn(79, 48, 94, 95, 119, 13, 31, 43);
            if (FATAL_XIDS.contains(code) && code != 94) {
                assertThat(first(EventType.NODE_NOT_READY, e.subject(), e.time())
                                .time())
                        .isEqualTo(e.time());
                fatalNodeDown++;
            }
        }
        assertThat(fatalNodeDown).isPositive();
    }

    @Test
    void rendezvousWorldsAreWithinElasticBoundsWithContiguousRanksOnLiveNodesOwnedByOneJob() {
        Map<String, ElasticPolicy> policies = policies();
        Map<String, List<String>> activeWorld = new HashMap<>();
        Map<String, String> nodeState = new HashMap<>();
        for (Event e : LIFECYCLE) {
            if (e.type().family() == EventType.Family.NODE) {
                nodeState.put(e.subject(), e.type().wireName());
            }
            if (e.type() == EventType.TRAINER_WORKER_FAILED
                    || e.type() == EventType.TRAINER_RESTARTED
                    || e.type() == EventType.WORKLOAD_EVICTED) {
                activeWorld.remove(e.subject());
            }
            if (!(e.data() instanceof TrainerData.Rendezvous r)) {
                continue;
            }
            ElasticPolicy p = policies.get(e.subject());
            assertThat(r.worldSize()).isBetween(p.minNodes() * p.procsPerNode(), p.maxNodes() * p.procsPerNode());
            List<TrainerData.Participant> ps = new ArrayList<>(r.participants());
            ps.sort(Comparator.comparingInt(TrainerData.Participant::firstRank));
            int next = 0;
            List<String> nodes = new ArrayList<>();
            for (TrainerData.Participant part : ps) {
                assertThat(part.firstRank()).as("contiguous ranks in %s", e).isEqualTo(next);
                assertThat(part.rankCount()).isEqualTo(p.procsPerNode());
                next += part.rankCount();
                assertThat(nodeState.get(part.node()))
                        .as("state of %s in %s", part.node(), e)
                        .isIn("node.ready", "node.interruption_notice", "node.cordoned");
                nodes.add(part.node());
            }
            assertThat(next).isEqualTo(r.worldSize());
            assertThat(new HashSet<>(nodes)).hasSameSizeAs(nodes);
            // A planned membership change shows only as the job's next round: its own earlier world is replaced.
            activeWorld.forEach((job, world) -> assertThat(job.equals(e.subject()) ? List.<String>of() : world)
                    .as("%s shares nodes with %s", e, job)
                    .doesNotContainAnyElementsOf(nodes));
            activeWorld.put(e.subject(), nodes);
        }
    }

    @Test
    void jobsShrinkOnLostNodesAndGrowBackToMaxWhenCapacityReturns() {
        Map<String, ElasticPolicy> policies = policies();
        Map<String, Integer> lastSize = new HashMap<>();
        Map<String, Boolean> belowMax = new HashMap<>();
        int shrinks = 0;
        int backToMax = 0;
        for (Event e : of(EventType.TRAINER_RENDEZVOUS)) {
            int size = ((TrainerData.Rendezvous) e.data()).worldSize();
            int max = policies.get(e.subject()).maxNodes()
                    * policies.get(e.subject()).procsPerNode();
            Integer before = lastSize.put(e.subject(), size);
            if (before != null && size < before) {
                shrinks++;
            }
            if (size < max) {
                belowMax.put(e.subject(), true);
            } else if (belowMax.getOrDefault(e.subject(), false)) {
                backToMax++;
                belowMax.put(e.subject(), false);
            }
        }
        assertThat(shrinks).isGreaterThan(3);
        assertThat(backToMax).isGreaterThan(2);
        assertThat(of(EventType.JOB_FINISHED)).isEmpty();
    }

    @Test
    void restoresLoadTheNewestCompleteCheckpointAndTheWorkAfterItIsDoneAgain() {
        Map<String, Long> newest = new HashMap<>();
        Map<String, Long> lastProgress = new HashMap<>();
        Map<String, Long> restoredAt = new HashMap<>();
        int regressions = 0;
        for (Event e : LIFECYCLE) {
            String job = e.subject();
            if (e.data() instanceof TrainerData.CheckpointCompleted c) {
                Long before = newest.put(job, c.step());
                assertThat(before == null || c.step() > before)
                        .as("checkpoint steps increase: %s", e)
                        .isTrue();
                assertThat(c.durationSeconds()).isGreaterThanOrEqualTo(c.blockingSeconds());
                assertThat(c.bytes()).isPositive();
                // Object storage, or the local disks of the one job that saves node-local.
                assertThat(c.uri()).matches("(s3://|file:///local_nvme/).*");
                assertThat(c.checksum()).startsWith("sha256:");
            } else if (e.data() instanceof TrainerData.Restored r) {
                if (newest.containsKey(job)) {
                    assertThat(r.step())
                            .as("restore from the newest complete checkpoint: %s", e)
                            .isEqualTo(newest.get(job));
                } else {
                    newest.put(job, r.step());
                }
                Long progressed = lastProgress.get(job);
                if (progressed != null && progressed > r.step()) {
                    regressions++;
                }
                restoredAt.put(job, r.step());
            } else if (e.data() instanceof TrainerData.Progress p) {
                Long restored = restoredAt.remove(job);
                if (restored != null) {
                    assertThat(p.step())
                            .as("first progress after restore: %s", e)
                            .isBetween(restored, restored + 20);
                }
                lastProgress.put(job, p.step());
            }
        }
        assertThat(regressions).isGreaterThan(3);
    }

    @Test
    void everyWorkerFailureIsFollowedByARestart() {
        for (Event f : of(EventType.TRAINER_WORKER_FAILED)) {
            Event restarted = first(EventType.TRAINER_RESTARTED, f.subject(), f.time());
            assertThat(Duration.between(f.time(), restarted.time())).isLessThanOrEqualTo(Duration.ofSeconds(10));
            assertThat(((TrainerData.Restarted) restarted.data()).restartCount())
                    .isPositive();
        }
    }

    @Test
    void checkpointsStartCompleteAndAreVerifiedInOrder() {
        Map<String, Event> started = new HashMap<>();
        Set<String> completed = new HashSet<>();
        for (Event e : LIFECYCLE) {
            if (e.data() instanceof TrainerData.CheckpointStarted s) {
                started.put(s.checkpointId(), e);
            } else if (e.data() instanceof TrainerData.CheckpointCompleted c) {
                TrainerData.CheckpointStarted s = (TrainerData.CheckpointStarted)
                        started.get(c.checkpointId()).data();
                assertThat(c.step()).isEqualTo(s.step());
                completed.add(c.checkpointId());
            } else if (e.data() instanceof TrainerData.CheckpointVerified v) {
                assertThat(completed).contains(v.checkpointId());
            }
        }
        assertThat(completed).hasSizeGreaterThan(100);
    }

    private static Map<String, ElasticPolicy> policies() {
        Map<String, ElasticPolicy> policies = new HashMap<>();
        for (Event e : of(EventType.JOB_SUBMITTED)) {
            policies.put(e.subject(), ((JobData.Submitted) e.data()).elastic());
        }
        assertThat(policies).hasSize(5);
        return policies;
    }

    private static Instant terminationOf(String node) {
        return first(EventType.NODE_TERMINATED, node, START).time();
    }

    private static Event first(EventType type, String subject, Instant from) {
        Event e = firstOrNull(type, subject, from);
        assertThat(e).as("%s of %s after %s", type, subject, from).isNotNull();
        return e;
    }

    private static Event firstOrNull(EventType type, String subject, Instant from) {
        for (Event e : LIFECYCLE) {
            if (e.type() == type && e.subject().equals(subject) && !e.time().isBefore(from)) {
                return e;
            }
        }
        return null;
    }
}
