package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.TestScenarios;
import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.storage.StorageSettings;
import io.lifeline.domain.storage.StorageTargets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Jobs#page} answers exactly what paging the full {@link Jobs#list} answers (rows and total), for every kind of
 * filter, on the simulator's fleet with jobs that start, end and are forgotten past the bound of ended jobs; and the
 * name order both walk, kept on every add and remove, is that of a sort.
 */
class JobsPageTest {

    private static Jobs jobs;

    @BeforeAll
    static void jobs() {
        Instant end = TestScenarios.START.plusSeconds(3 * 3600);
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(64, 40), TestScenarios.START);
        Clock clock = Clock.fixed(end, ZoneOffset.UTC);
        Fleet fleet = new Fleet(clock);
        jobs = new Jobs(fleet, clock, JobsConfig.defaults().withMaxFinishedJobs(5));
        LifelineModel model = new LifelineModel(fleet, jobs, new StorageTargets(StorageSettings.defaults()), clock);
        sim.advanceTo(end).forEach(model::apply);
    }

    @Test
    void everyPageOfEveryFilterIsTheFullListsPage() {
        List<JobSummary> all = jobs.list(JobFilter.all());
        assertThat(all)
                .hasSize(jobs.size())
                .hasSizeGreaterThan(20)
                .isSortedAccordingTo(Comparator.comparing(JobSummary::name));
        List<JobFilter> filters = new ArrayList<>(List.of(
                JobFilter.all(),
                new JobFilter(all.get(0).namespace(), null, null),
                new JobFilter(null, null, true),
                new JobFilter(null, null, false),
                new JobFilter("no-such-namespace", null, null)));
        for (JobState s : JobState.values()) {
            filters.add(new JobFilter(null, s, null));
            filters.add(new JobFilter(null, s, false));
        }
        List<Predicate<String>> visible = List.of(ns -> true, ns -> ns.hashCode() % 2 == 0, ns -> false);
        for (JobFilter f : filters) {
            for (Predicate<String> v : visible) {
                List<JobSummary> expected = jobs.list(f, v);
                for (int offset : new int[] {0, 1, 7, expected.size() - 1, expected.size(), 10_000}) {
                    for (int limit : new int[] {0, 1, 5, 100}) {
                        int o = Math.max(0, offset);
                        Jobs.JobPage page = jobs.page(f, v, o, limit);
                        int from = Math.min(o, expected.size());
                        assertThat(page.total()).isEqualTo(expected.size());
                        assertThat(page.items())
                                .as("%s offset %d limit %d", f, o, limit)
                                .isEqualTo(expected.subList(from, Math.min(expected.size(), from + limit)));
                    }
                }
            }
        }
    }
}
