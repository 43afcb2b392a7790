package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessRulesTest {

    private final AccessRules rules = AccessRules.standard(false);

    private static Caller caller(Role role) {
        return Caller.ofToken("abcdefghijkl", role.wireName(), role, List.of());
    }

    private boolean allowed(Role role, String method, String path) {
        return rules.match(method, path).allows(role == null ? Caller.anonymous() : caller(role));
    }

    @Test
    void readsUnderApiNeedViewerAndIngestMayNotRead() {
        assertThat(allowed(Role.VIEWER, "GET", "/api/v1/events")).isTrue();
        assertThat(allowed(Role.VIEWER, "HEAD", "/api/v1/nodes/n1")).isTrue();
        assertThat(allowed(Role.OPERATOR, "GET", "/api/v1/jobs")).isTrue();
        assertThat(allowed(Role.INGEST, "GET", "/api/v1/events")).isFalse();
        assertThat(allowed(null, "GET", "/api/v1/events")).isFalse();
    }

    @Test
    void ingestEndpointsTakeIngestOrOperatorAndAreRateLimited() {
        for (String path : List.of("/api/v1/events", "/api/v1/connectors/dcgm/scrape", "/api/v1/connectors")) {
            AccessRules.Rule r = rules.match("POST", path);
            assertThat(r.rate()).as(path).isEqualTo(AccessRules.RateClass.INGEST);
            assertThat(allowed(Role.INGEST, "POST", path)).isTrue();
            assertThat(allowed(Role.OPERATOR, "POST", path)).isTrue();
            assertThat(allowed(Role.ADMIN, "POST", path)).isTrue();
            assertThat(allowed(Role.VIEWER, "POST", path)).as(path).isFalse();
        }
        assertThat(allowed(Role.INGEST, "POST", "/api/v1/eventsx")).isFalse();
        assertThat(allowed(Role.INGEST, "POST", "/api/v1/events/x")).isFalse();
    }

    @Test
    void actionsNeedOperatorAndAreRateLimited() {
        assertThat(rules.match("POST", "/api/v1/actions").rate()).isEqualTo(AccessRules.RateClass.ACTIONS);
        assertThat(allowed(Role.OPERATOR, "POST", "/api/v1/actions")).isTrue();
        assertThat(allowed(Role.OPERATOR, "POST", "/api/v1/actions/a1/approve")).isTrue();
        assertThat(allowed(Role.VIEWER, "POST", "/api/v1/actions")).isFalse();
        assertThat(allowed(Role.INGEST, "POST", "/api/v1/actions")).isFalse();
    }

    @Test
    void alertsAndSilencesAreReadByViewersAndSilencedByOperators() {
        assertThat(allowed(Role.VIEWER, "GET", "/api/v1/alerts")).isTrue();
        assertThat(allowed(Role.VIEWER, "GET", "/api/v1/silences/s1")).isTrue();
        assertThat(allowed(Role.INGEST, "GET", "/api/v1/alerts")).isFalse();
        assertThat(allowed(null, "GET", "/api/v1/alerts")).isFalse();
        assertThat(allowed(Role.OPERATOR, "POST", "/api/v1/silences")).isTrue();
        assertThat(allowed(Role.OPERATOR, "DELETE", "/api/v1/silences/s1")).isTrue();
        assertThat(allowed(Role.ADMIN, "DELETE", "/api/v1/silences/s1")).isTrue();
        assertThat(allowed(Role.VIEWER, "POST", "/api/v1/silences")).isFalse();
        assertThat(allowed(Role.VIEWER, "DELETE", "/api/v1/silences/s1")).isFalse();
        assertThat(allowed(Role.INGEST, "POST", "/api/v1/silences")).isFalse();
        assertThat(rules.match("POST", "/api/v1/alerts").kind())
                .as("alerts are not written through the API")
                .isEqualTo(AccessRules.Kind.DENY);
        assertThat(rules.match("PUT", "/api/v1/silences/s1").kind()).isEqualTo(AccessRules.Kind.DENY);
    }

    @Test
    void agentCommandsTakeIngestOrOperatorAndAcksAreRateLimited() {
        String poll = "/api/v1/agents/team/echo/commands";
        String ack = "/api/v1/agents/team/echo/commands/c-1/ack";
        for (Role role : List.of(Role.INGEST, Role.OPERATOR, Role.ADMIN)) {
            assertThat(allowed(role, "GET", poll)).as(role.name()).isTrue();
            assertThat(allowed(role, "POST", ack)).as(role.name()).isTrue();
        }
        assertThat(allowed(Role.VIEWER, "GET", poll)).isFalse();
        assertThat(allowed(Role.VIEWER, "POST", ack)).isFalse();
        assertThat(allowed(null, "GET", poll)).isFalse();
        assertThat(rules.match("POST", ack).rate()).isEqualTo(AccessRules.RateClass.INGEST);
        assertThat(rules.match("GET", poll).rate()).isNull();
        // An agent gives its claim up as it exits; an operator may release any agent's (the endpoint checks which).
        String claim = "/api/v1/agents/team/echo/commands/claim";
        assertThat(allowed(Role.INGEST, "DELETE", claim)).isTrue();
        assertThat(allowed(Role.OPERATOR, "DELETE", claim)).isTrue();
        assertThat(allowed(Role.VIEWER, "DELETE", claim)).isFalse();
        assertThat(rules.match("DELETE", claim).rate()).isNull();
    }

    @Test
    void tokensAndAuditAreAdminOnlyEvenForReading() {
        for (String method : List.of("GET", "POST", "DELETE")) {
            assertThat(allowed(Role.ADMIN, method, "/api/v1/tokens")).isTrue();
            assertThat(allowed(Role.OPERATOR, method, "/api/v1/tokens"))
                    .as(method)
                    .isFalse();
            assertThat(allowed(Role.VIEWER, method, "/api/v1/tokens/abc"))
                    .as(method)
                    .isFalse();
        }
        assertThat(allowed(Role.OPERATOR, "GET", "/api/v1/security/audit")).isFalse();
        assertThat(allowed(Role.ADMIN, "GET", "/api/v1/security/audit")).isTrue();
    }

    @Test
    void policyAndSettingsWritesNeedAdminButReadsNeedViewer() {
        assertThat(allowed(Role.VIEWER, "GET", "/api/v1/policies")).isTrue();
        assertThat(allowed(Role.OPERATOR, "PUT", "/api/v1/policies/p1")).isFalse();
        assertThat(allowed(Role.ADMIN, "PUT", "/api/v1/policies/p1")).isTrue();
        assertThat(allowed(Role.ADMIN, "PATCH", "/api/v1/settings")).isTrue();
        assertThat(allowed(Role.OPERATOR, "DELETE", "/api/v1/settings/x")).isFalse();
    }

    @Test
    void unnamedWritesUnderApiAreDeniedToEveryRole() {
        for (String path : List.of("/api/v1/nodes/n1/cordon", "/api/v2/anything", "/api")) {
            AccessRules.Rule r = rules.match("POST", path);
            assertThat(r.kind()).as(path).isEqualTo(AccessRules.Kind.DENY);
            assertThat(r.allows(Caller.unrestricted("x"))).isFalse();
        }
        assertThat(rules.match("OPTIONS", "/api/v1/events").kind()).isEqualTo(AccessRules.Kind.DENY);
        assertThat(rules.match("PUT", "/api/v1/events").kind()).isEqualTo(AccessRules.Kind.DENY);
    }

    @Test
    void healthSwaggerAndTheUiAreOpenAndMetricsOnlyWhenNotProtected() {
        assertThat(rules.match("GET", "/q/health/live").kind()).isEqualTo(AccessRules.Kind.OPEN);
        assertThat(rules.match("GET", "/q/openapi").kind()).isEqualTo(AccessRules.Kind.OPEN);
        assertThat(rules.match("GET", "/q/swagger-ui/index.html").kind()).isEqualTo(AccessRules.Kind.OPEN);
        assertThat(rules.match("POST", "/").kind()).isEqualTo(AccessRules.Kind.OPEN);
        assertThat(rules.match("GET", "/VAADIN/build/x.js").kind()).isEqualTo(AccessRules.Kind.OPEN);
        assertThat(rules.match("GET", "/metrics").kind()).isEqualTo(AccessRules.Kind.OPEN);
        AccessRules protectedMetrics = AccessRules.standard(true);
        assertThat(protectedMetrics.match("GET", "/metrics").allows(Caller.anonymous()))
                .isFalse();
        assertThat(protectedMetrics.match("GET", "/metrics").allows(caller(Role.VIEWER)))
                .isTrue();
    }

    @Test
    void respellingAPathNeverReachesALaxerRule() {
        for (String path : List.of(
                "/api/v1/tokens;jsessionid=1",
                "/api//v1/tokens",
                "/api/v1/./tokens",
                "/api/v1/events/../tokens",
                "/api/v1/%74okens",
                "/api/v1/%2574okens",
                "/API/v1/TOKENS",
                "//api/v1/tokens/",
                "/x/../api/v1/tokens",
                "/api/v1/tokens%2Fabc")) {
            assertThat(allowed(Role.VIEWER, "GET", path)).as(path).isFalse();
            assertThat(allowed(Role.ADMIN, "GET", path)).as(path).isTrue();
        }
        assertThat(allowed(null, "GET", "/%61pi/v1/events")).isFalse();
        assertThat(allowed(null, "GET", "/api%2Fv1/events")).isFalse();
        assertThat(allowed(null, "GET", "/bad%zzpath")).isFalse();
    }

    @Test
    void everyRuleDescribesItself() {
        assertThat(rules.rules())
                .extracting(AccessRules.Rule::describe)
                .contains(
                        "POST /api/v1/events -> operator|ingest (rate: INGEST)", "* /api/** -> deny", "* /** -> open");
    }
}
