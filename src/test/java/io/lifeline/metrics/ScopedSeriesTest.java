package io.lifeline.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.Scope;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScopedSeriesTest {

    private static final String SCRAPE = """
            # HELP lifeline_job_world_size ranks now
            # TYPE lifeline_job_world_size gauge
            lifeline_job_world_size{job_name="team-a/llm",job_namespace="team-a",} 16.0
            lifeline_job_world_size{job_name="team-b/llm",job_namespace="team-b",} 8.0
            # HELP lifeline_job_node_info nodes of a job
            # TYPE lifeline_job_node_info gauge
            lifeline_job_node_info{job_name="team-b/llm",job_namespace="team-b",node="n2",} 1.0
            # HELP lifeline_jobs jobs by state
            # TYPE lifeline_jobs gauge
            lifeline_jobs{state="running",} 2.0
            # HELP lifeline_node_lemon_score interruptions of the node
            # TYPE lifeline_node_lemon_score gauge
            lifeline_node_lemon_score{node="n1",} 3.0
            lifeline_node_lemon_score{node="n2",} 1.0
            # HELP odd_series a value with a quote and a brace
            # TYPE odd_series gauge
            odd_series{note="say \\"}\\" job_namespace=\\"team-a\\"",job_namespace="team-b",} 1.0
            process_uptime_seconds 12.5
            # EOF
            """;

    @Test
    void aScopedCallerGetsItsJobsSeriesAndTheNodesItsJobsRunOnOnly() {
        String out = ScopedSeries.filter(SCRAPE, Scope.namespaces(List.of("team-a")), Set.of("n1"));
        assertThat(out).isEqualTo("""
                # HELP lifeline_job_world_size ranks now
                # TYPE lifeline_job_world_size gauge
                lifeline_job_world_size{job_name="team-a/llm",job_namespace="team-a",} 16.0
                # HELP lifeline_node_lemon_score interruptions of the node
                # TYPE lifeline_node_lemon_score gauge
                lifeline_node_lemon_score{node="n1",} 3.0
                # EOF
                """);
    }

    @Test
    void labelValuesAreReadWithTheirEscapes() {
        assertThat(ScopedSeries.labels("odd{note=\"say \\\"}\\\" x\",job_namespace=\"team-b\",} 1.0"))
                .containsEntry("note", "say \"}\" x")
                .containsEntry("job_namespace", "team-b");
        assertThat(ScopedSeries.labels("process_uptime_seconds 12.5")).isEmpty();
        assertThat(ScopedSeries.labels("broken{note=\"never closed")).isEmpty();
    }

    @Test
    void aScopeWithoutNamespacesGetsNothingButTheEnd() {
        assertThat(ScopedSeries.filter(SCRAPE, Scope.namespaces(List.of()), Set.of()))
                .isEqualTo("# EOF\n");
    }
}
