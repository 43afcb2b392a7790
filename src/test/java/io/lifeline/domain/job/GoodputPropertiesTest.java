package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.testing.MovableClock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * For random streams of every event kind, including late and redelivered events: the goodput buckets add
 * up to wall time exactly, none is negative, and the incidents account for all lost and recovery time.
 */
class GoodputPropertiesTest {

    @Provide
    Arbitrary<List<RandomStreams.Step>> streams() {
        return RandomStreams.steps(200);
    }

    @Property(tries = 400)
    void bucketsAddUpToWallTimeAndNoneIsNegative(@ForAll("streams") List<RandomStreams.Step> steps) {
        List<Object> inputs = RandomStreams.build(steps);
        MovableClock clock = new MovableClock(RandomStreams.BASE);
        Jobs jobs = new Jobs(RandomStreams.nodes(), clock);
        for (int i = 0; i < inputs.size(); i++) {
            RandomStreams.apply(jobs, inputs.get(i));
            if (i % 20 == 0) {
                checkAll(jobs);
            }
        }
        clock.set(RandomStreams.latest(inputs).plusSeconds(60));
        checkAll(jobs);
        collectCoverage(jobs);
        // A clock behind the newest event (a replay, or skew) must not break the sum either.
        clock.set(RandomStreams.BASE);
        checkAll(jobs);
    }

    /** The generator must keep producing the cases the property is about, or the property proves little. */
    private static void collectCoverage(Jobs jobs) {
        boolean lost = false;
        boolean recovered = false;
        boolean late = false;
        boolean duplicate = false;
        boolean hung = false;
        for (JobSummary s : jobs.list(JobFilter.all())) {
            JobDetail d = jobs.detail(s.name()).orElseThrow();
            lost |= d.goodput().lostReworkMillis() > 0;
            recovered |= jobs.incidents(s.name()).orElseThrow().stream()
                    .anyMatch(i -> i.outcome() == io.lifeline.domain.job.incident.IncidentOutcome.RECOVERED);
            late |= d.lateEvents() > 0;
            duplicate |= d.duplicatesDropped() > 0;
            hung |= d.goodput().hangMillis() > 0;
        }
        Statistics.label("lost rework").collect(lost);
        Statistics.label("recovered incident").collect(recovered);
        Statistics.label("late event").collect(late);
        Statistics.label("duplicate").collect(duplicate);
        Statistics.label("hang").collect(hung);
        Statistics.label("hang").coverage(c -> c.check(true).percentage(p -> p > 5));
        Statistics.label("lost rework").coverage(c -> c.check(true).percentage(p -> p > 20));
        Statistics.label("recovered incident").coverage(c -> c.check(true).percentage(p -> p > 20));
        Statistics.label("late event").coverage(c -> c.check(true).percentage(p -> p > 50));
        Statistics.label("duplicate").coverage(c -> c.check(true).percentage(p -> p > 30));
    }

    private static void checkAll(Jobs jobs) {
        for (JobSummary s : jobs.list(JobFilter.all())) {
            GoodputView g = jobs.goodput(s.name()).orElseThrow();
            long[] buckets = {
                g.productiveMillis(),
                g.checkpointMillis(),
                g.lostReworkMillis(),
                g.recoveryDetectionMillis(),
                g.recoveryRestartMillis(),
                g.recoveryLoadMillis(),
                g.rescaleMillis(),
                g.startupMillis(),
                g.waitingMillis(),
                g.hangMillis()
            };
            long sum = 0;
            for (long b : buckets) {
                assertThat(b).as("bucket of %s in %s", s.name(), g).isNotNegative();
                sum += b;
            }
            assertThat(sum).as("sum of buckets of %s", s.name()).isEqualTo(g.wallMillis());
            assertThat(g.recoveryMillis())
                    .isEqualTo(g.recoveryDetectionMillis() + g.recoveryRestartMillis() + g.recoveryLoadMillis());
            assertThat(g.productiveGpuMillis()).isNotNegative();
            assertThat(g.lostGpuMillis()).isNotNegative();
            assertThat(g.heldGpuMillis()).isGreaterThanOrEqualTo(g.productiveGpuMillis() + g.lostGpuMillis());
            if (g.ettr() != null) {
                assertThat(g.ettr()).isBetween(0.0, 1.0);
            }
            List<IncidentView> incidents = jobs.incidents(s.name()).orElseThrow();
            long lost = 0;
            long recovery = 0;
            double lostGpuHours = 0;
            for (IncidentView i : incidents) {
                assertThat(i.lostReworkMillis()).isNotNegative();
                assertThat(i.downtimeMillis()).isGreaterThanOrEqualTo(i.recoveryMillis() + i.waitingMillis());
                lost += i.lostReworkMillis();
                recovery += i.recoveryMillis();
                lostGpuHours += i.lostGpuHours();
            }
            assertThat(lost)
                    .as("lost rework of %s is all in its incidents", s.name())
                    .isEqualTo(g.lostReworkMillis());
            assertThat(recovery)
                    .as("recovery of %s is all in its incidents", s.name())
                    .isEqualTo(g.recoveryMillis());
            assertThat(lostGpuHours).isCloseTo(g.lostGpuHours(), within(1e-6));
        }
    }

    @Property(tries = 200)
    void theSameStreamGivesTheSameState(@ForAll("streams") List<RandomStreams.Step> steps) {
        List<Object> inputs = RandomStreams.build(steps);
        assertThat(snapshot(inputs)).isEqualTo(snapshot(inputs));
    }

    @Property(tries = 200)
    void redeliveredEventsChangeNothing(@ForAll("streams") List<RandomStreams.Step> steps) {
        List<Object> inputs = RandomStreams.build(steps);
        List<Object> firstDeliveries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Object o : inputs) {
            if (!(o instanceof Event e) || seen.add(e.source() + "/" + e.id())) {
                firstDeliveries.add(o);
            }
        }
        assertThat(snapshot(inputs)).isEqualTo(snapshot(firstDeliveries));
    }

    /** Everything a reader can see, except the counter of dropped duplicates. */
    private static List<Object> snapshot(List<Object> inputs) {
        MovableClock clock = new MovableClock(RandomStreams.BASE);
        Jobs jobs = new Jobs(RandomStreams.nodes(), clock);
        inputs.forEach(i -> RandomStreams.apply(jobs, i));
        clock.set(RandomStreams.latest(inputs).plusSeconds(30));
        List<Object> out = new ArrayList<>();
        for (JobSummary s : jobs.list(JobFilter.all())) {
            out.add(s);
            out.add(jobs.goodput(s.name()).orElseThrow());
            out.add(jobs.incidents(s.name()).orElseThrow());
            out.add(jobs.checkpoints(s.name()).orElseThrow());
            out.add(jobs.membership(s.name()).orElseThrow());
            out.add(jobs.freshness(s.name()).orElseThrow());
            out.add(jobs.timeline(s.name(), null, null, null, 10_000)
                    .orElseThrow()
                    .entries());
            out.add(jobs.advice(s.name()).orElseThrow());
        }
        for (String node : List.of("n1", "n2", "n3", "n4")) {
            out.add(jobs.jobsOn(node));
        }
        return out;
    }
}
