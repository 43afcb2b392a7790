package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.security.identity.Role;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupRolesTest {

    private final GroupRoles roles = GroupRoles.parse(Map.of(
            "viewers", "viewer",
            "team-a-ops", "operator:team-a",
            "team-b-ops", " Operator : team-b , team-c ",
            "sre", "operator",
            "platform", "admin",
            "shippers", "ingest"));

    @Test
    void theHighestRoleWinsAndItsScopesAreJoined() {
        assertThat(roles.grant(List.of("viewers"))).hasValue(new GroupRoles.Granted(Role.VIEWER, List.of()));
        assertThat(roles.grant(List.of("viewers", "team-a-ops", "team-b-ops")))
                .hasValue(new GroupRoles.Granted(Role.OPERATOR, List.of("team-a", "team-b", "team-c")));
        assertThat(roles.grant(List.of("team-a-ops", "sre")))
                .hasValue(new GroupRoles.Granted(Role.OPERATOR, List.of()));
        assertThat(roles.grant(List.of("team-a-ops", "platform")))
                .hasValue(new GroupRoles.Granted(Role.ADMIN, List.of()));
        assertThat(roles.grant(List.of("shippers", "viewers")))
                .get()
                .extracting(GroupRoles.Granted::role)
                .isEqualTo(Role.VIEWER);
    }

    @Test
    void unmappedGroupsGrantNothing() {
        assertThat(roles.grant(List.of())).isEmpty();
        assertThat(roles.grant(List.of("strangers", "VIEWERS"))).isEmpty();
    }

    @Test
    void mistakesInTheMappingStopStartUpNamingTheGroup() {
        assertThatThrownBy(() -> GroupRoles.parse(Map.of("g1", "superuser")))
                .hasMessageContaining("\"g1\"")
                .hasMessageContaining("viewer, operator, admin, ingest");
        assertThatThrownBy(() -> GroupRoles.parse(Map.of("g2", "operator:Team_A")))
                .hasMessageContaining("\"g2\"")
                .hasMessageContaining("Team_A");
        assertThatThrownBy(() -> GroupRoles.parse(Map.of("g3", "admin:team-a")))
                .hasMessageContaining("always fleet-wide");
    }
}
