package io.lifeline.security.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallerTest {

    private static Caller token(Role role, String... namespaces) {
        return Caller.ofToken("abcdefghijkl", "t-" + role.wireName(), role, List.of(namespaces));
    }

    @Test
    void rolesNestAdminOverOperatorOverViewerAndIngestStandsAlone() {
        assertThat(Role.ADMIN.includes(Role.OPERATOR)).isTrue();
        assertThat(Role.ADMIN.includes(Role.VIEWER)).isTrue();
        assertThat(Role.OPERATOR.includes(Role.VIEWER)).isTrue();
        assertThat(Role.OPERATOR.includes(Role.ADMIN)).isFalse();
        assertThat(Role.VIEWER.includes(Role.OPERATOR)).isFalse();
        assertThat(Role.INGEST.includes(Role.VIEWER)).isFalse();
        assertThat(Role.ADMIN.includes(Role.INGEST)).isFalse();
    }

    @Test
    void fleetWideOperatorMayActAnywhereAndOnNodes() {
        Caller c = token(Role.OPERATOR);
        assertThat(c.isFleetWide()).isTrue();
        assertThat(c.mayActOnNamespace("team-a")).isTrue();
        assertThat(c.mayActOnNamespace("anything")).isTrue();
        assertThat(c.mayActOnNodes()).isTrue();
    }

    @Test
    void scopedOperatorMayActOnlyInItsNamespacesAndNeverOnNodes() {
        Caller c = token(Role.OPERATOR, "team-a", "team-b");
        assertThat(c.isFleetWide()).isFalse();
        assertThat(c.mayActOnNamespace("team-a")).isTrue();
        assertThat(c.mayActOnNamespace("team-b")).isTrue();
        assertThat(c.mayActOnNamespace("team-c")).isFalse();
        assertThat(c.mayActOnNamespace(null)).isFalse();
        assertThat(c.mayActOnNodes()).isFalse();
        assertThatThrownBy(() -> c.requireActOnNamespace("team-c"))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("team-c")
                .hasMessageContaining("[team-a, team-b]");
        assertThatThrownBy(c::requireActOnNodes)
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("fleet-wide");
        c.requireActOnNamespace("team-a");
    }

    @Test
    void viewerMayReadInScopeButNeverAct() {
        Caller scoped = token(Role.VIEWER, "team-a");
        assertThat(scoped.mayReadNamespace("team-a")).isTrue();
        assertThat(scoped.mayReadNamespace("team-b")).isFalse();
        assertThat(scoped.mayActOnNamespace("team-a")).isFalse();
        Caller fleet = token(Role.VIEWER);
        assertThat(fleet.mayActOnNodes()).isFalse();
        assertThatThrownBy(() -> fleet.requireActOnNamespace("team-a"))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("operator role");
    }

    @Test
    void ingestTokenMayNeitherReadNorAct() {
        Caller c = token(Role.INGEST);
        assertThat(c.mayReadNamespace("team-a")).isFalse();
        assertThat(c.mayActOnNamespace("team-a")).isFalse();
        assertThat(c.mayActOnNodes()).isFalse();
    }

    @Test
    void anonymousMayDoNothingAndUnrestrictedMayDoEverything() {
        Caller a = Caller.anonymous();
        assertThat(a.isAuthenticated()).isFalse();
        assertThat(a.isFleetWide()).isFalse();
        assertThat(a.mayReadNamespace("x")).isFalse();
        assertThat(a.mayActOnNodes()).isFalse();
        Caller u = Caller.unrestricted("local");
        assertThat(u.has(Role.ADMIN)).isTrue();
        assertThat(u.mayActOnNodes()).isTrue();
        assertThat(u.mayActOnNamespace("x")).isTrue();
    }

    @Test
    void namespacesMustBeKubernetesNames() {
        assertThatThrownBy(() -> token(Role.OPERATOR, "Team_A")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> token(Role.OPERATOR, "-a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> token(Role.OPERATOR, "a".repeat(64))).isInstanceOf(IllegalArgumentException.class);
        assertThat(token(Role.OPERATOR, "a".repeat(63)).namespaces()).hasSize(1);
    }

    @Test
    void actorNamesTheTokenByNameAndIdOnly() {
        assertThat(token(Role.ADMIN).actor()).isEqualTo("t-admin [abcdefghijkl]");
    }
}
