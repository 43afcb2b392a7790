package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenFormatTest {

    @Test
    void generatedTokenParsesBackToItsIdAndMatchesItsHash() {
        TokenFormat.Generated g = TokenFormat.generate();
        assertThat(g.token()).startsWith("llt_" + g.id() + "_").hasSize(4 + 12 + 1 + 43);
        TokenFormat.Parsed p = TokenFormat.parse(g.token());
        assertThat(p).isNotNull();
        assertThat(p.id()).isEqualTo(g.id());
        assertThat(TokenFormat.matches(p.secret(), g.secretSha256())).isTrue();
    }

    @Test
    void anotherSecretForTheSameIdDoesNotMatch() {
        TokenFormat.Generated a = TokenFormat.generate();
        TokenFormat.Generated b = TokenFormat.generate();
        String forged = "llt_" + a.id() + "_" + TokenFormat.parse(b.token()).secret();
        assertThat(TokenFormat.matches(TokenFormat.parse(forged).secret(), a.secretSha256()))
                .isFalse();
        assertThat(TokenFormat.matches("x", null)).isFalse();
    }

    @Test
    void thingsThatAreNotOurTokensAreNotParsed() {
        String good = TokenFormat.generate().token();
        assertThat(TokenFormat.parse(null)).isNull();
        assertThat(TokenFormat.parse("")).isNull();
        assertThat(TokenFormat.parse("eyJhbGciOiJIUzI1NiJ9.e30.abc")).isNull();
        assertThat(TokenFormat.parse(good.substring(0, good.length() - 1))).isNull();
        assertThat(TokenFormat.parse(good + "A")).isNull();
        assertThat(TokenFormat.parse("xlt" + good.substring(3))).isNull();
        assertThat(TokenFormat.parse(good.substring(0, 16) + "-" + good.substring(17)))
                .isNull();
        assertThat(TokenFormat.parse(good.substring(0, 30) + "!" + good.substring(31)))
                .isNull();
        assertThat(TokenFormat.parse("llt_ABCDEFGHIJKL" + good.substring(16))).isNull();
    }

    @Test
    void idsAndSecretsAreDistinctAndToStringNeverShowsTheSecret() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            TokenFormat.Generated g = TokenFormat.generate();
            ids.add(g.id());
            String secret = TokenFormat.parse(g.token()).secret();
            assertThat(g.toString()).doesNotContain(secret);
            assertThat(TokenFormat.parse(g.token()).toString()).doesNotContain(secret);
        }
        assertThat(ids).hasSize(1000);
    }
}
