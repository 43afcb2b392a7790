package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Role;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenCheckTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private final TokenFormat.Generated g = TokenFormat.generate();
    private final String secret = TokenFormat.parse(g.token()).secret();

    private ApiToken stored(Instant expiresAt, Instant revokedAt) {
        return new ApiToken(
                g.id(),
                "ci",
                Role.OPERATOR,
                List.of("team-a"),
                g.secretSha256(),
                NOW.minusSeconds(60),
                "admin",
                expiresAt,
                revokedAt,
                revokedAt == null ? null : "admin",
                null);
    }

    @Test
    void activeTokenWithTheRightSecretGivesItsCaller() {
        TokenService.Verification v = TokenService.check(stored(NOW.plusSeconds(1), null), secret, NOW);
        assertThat(v.ok()).isTrue();
        assertThat(v.caller().name()).isEqualTo("ci");
        assertThat(v.caller().role()).isEqualTo(Role.OPERATOR);
        assertThat(v.caller().namespaces()).containsExactly("team-a");
    }

    @Test
    void wrongSecretOrUnknownIdIsInvalid() {
        assertThat(TokenService.check(stored(null, null), secret.substring(1) + "A", NOW)
                        .failure())
                .isEqualTo(SecurityMetrics.AuthFailure.INVALID);
        assertThat(TokenService.check(null, secret, NOW).failure()).isEqualTo(SecurityMetrics.AuthFailure.INVALID);
    }

    @Test
    void expiredAtTheExpiryInstant() {
        assertThat(TokenService.check(stored(NOW, null), secret, NOW).failure())
                .isEqualTo(SecurityMetrics.AuthFailure.EXPIRED);
    }

    @Test
    void revokedWinsOverExpiredAndIsOnlyToldToTheHolderOfTheSecret() {
        assertThat(TokenService.check(stored(NOW.minusSeconds(1), NOW.minusSeconds(5)), secret, NOW)
                        .failure())
                .isEqualTo(SecurityMetrics.AuthFailure.REVOKED);
        assertThat(TokenService.check(stored(null, NOW.minusSeconds(5)), "wrong", NOW)
                        .failure())
                .isEqualTo(SecurityMetrics.AuthFailure.INVALID);
    }
}
