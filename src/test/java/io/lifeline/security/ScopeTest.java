package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScopeTest {

    private static final Map<String, List<String>> JOBS_BY_NODE = Map.of(
            "n1", List.of("team-a/llm"), "n2", List.of("team-b/llm"), "n3", List.of("team-a/eval", "team-b/eval"));

    @Test
    void aFleetWideCallerSeesEverything() {
        Scope s = Scope.of(Caller.ofToken("t1", "all", Role.VIEWER, List.of()));
        assertThat(s.isEverything()).isTrue();
        assertThat(s.allowsJob("anything/at-all")).isTrue();
        assertThat(s.nodesUsed(JOBS_BY_NODE)).isNull();
        assertThat(Scope.nodeFilter(s.nodesUsed(JOBS_BY_NODE)).test("unknown-node"))
                .isTrue();
        assertThat(s.allowsTarget("n2", null)).isTrue();
        assertThat(Scope.of(Caller.unrestricted("local")).isEverything()).isTrue();
    }

    @Test
    void aScopedCallerSeesItsNamespacesAndTheNodesItsJobsRunOn() {
        Scope s = Scope.of(Caller.ofToken("t2", "a", Role.VIEWER, List.of("team-a")));
        assertThat(s.isEverything()).isFalse();
        assertThat(s.namespaces()).containsExactly("team-a");
        assertThat(s.allowsNamespace("team-a")).isTrue();
        assertThat(s.allowsNamespace("team-b")).isFalse();
        assertThat(s.allowsNamespace(null)).isFalse();
        assertThat(s.allowsJob("team-a/llm")).isTrue();
        assertThat(s.allowsJob("team-b/llm")).isFalse();
        assertThat(s.allowsJob("team-a"))
                .as("a node named like the namespace is not a job")
                .isFalse();
        assertThat(s.allowsJob("team-ab/llm")).isFalse();
        Set<String> nodes = s.nodesUsed(JOBS_BY_NODE);
        assertThat(nodes).containsExactly("n1", "n3");
        assertThat(Scope.nodeFilter(nodes).test("n2")).isFalse();
        assertThat(s.allowsTarget("n1", nodes)).isTrue();
        assertThat(s.allowsTarget("n2", nodes)).isFalse();
        assertThat(s.allowsTarget("team-a/llm", nodes)).isTrue();
        assertThat(s.allowsTarget("team-b/llm", nodes)).isFalse();
        assertThat(s.allowsTarget(null, nodes)).isFalse();
    }

    @Test
    void anAnonymousCallerSeesNothing() {
        Scope s = Scope.of(Caller.anonymous());
        assertThat(s.isEverything()).isFalse();
        assertThat(s.allowsJob("team-a/llm")).isFalse();
        assertThat(s.nodesUsed(JOBS_BY_NODE)).isEmpty();
    }
}
