package io.lifeline.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonTest {

    record Sample(Instant at, Optional<String> note) {}

    @Test
    void writesDatesAsStringsAndIgnoresUnknownProperties() throws Exception {
        String json =
                Json.mapper().writeValueAsString(new Sample(Instant.parse("2026-12-06T10:00:00Z"), Optional.of("x")));
        assertThat(json).isEqualTo("{\"at\":\"2026-12-06T10:00:00Z\",\"note\":\"x\"}");
        Sample back = Json.mapper().readValue("{\"at\":\"2026-12-06T10:00:00Z\",\"extra\":1}", Sample.class);
        assertThat(back.at()).isEqualTo(Instant.parse("2026-12-06T10:00:00Z"));
        assertThat(Json.mapper().readValue("{\"note\":\"y\"}", Sample.class).note())
                .contains("y");
    }

    @Test
    void untrustedDocumentsMayNotNestDeeply() throws Exception {
        String deep = "[".repeat(Json.UNTRUSTED_NESTING + 1) + "]".repeat(Json.UNTRUSTED_NESTING + 1);
        assertThatThrownBy(() -> Json.untrusted().readTree(deep)).isInstanceOf(StreamConstraintsException.class);
        assertThat(Json.mapper().readTree(deep).isArray()).isTrue();
        String shallow = "[".repeat(Json.UNTRUSTED_NESTING) + "]".repeat(Json.UNTRUSTED_NESTING);
        assertThat(Json.untrusted().readTree(shallow).isArray()).isTrue();
        assertThatThrownBy(() -> Json.untrusted(8).readTree("\"" + "a".repeat(9) + "\""))
                .isInstanceOf(StreamConstraintsException.class);
    }
}
