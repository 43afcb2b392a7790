package io.lifeline.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lifeline.platform.Json;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Quarkus' mapper (REST answers, injected in beans) and {@link Json#mapper()} write and read the same JSON, but for the
 * domain's wire enums, which answers write by their wire names ({@link WireNames}).
 */
@QuarkusTest
class JsonSettingsTest {

    record Sample(Instant at, Duration took, LocalDate day, Optional<String> note, Optional<Long> none) {}

    @Inject
    ObjectMapper quarkus;

    @Test
    void quarkusMapperAndTheSharedOneAgree() throws Exception {
        Sample s = new Sample(
                Instant.parse("2026-12-06T10:00:00.123Z"),
                Duration.ofMillis(1500),
                LocalDate.of(2026, 12, 6),
                Optional.of("x"),
                Optional.empty());
        assertThat(quarkus.writeValueAsString(s)).isEqualTo(Json.mapper().writeValueAsString(s));
        String in = "{\"at\":\"2026-12-06T10:00:00Z\",\"took\":1.5,\"day\":\"2026-12-06\",\"unknown\":true}";
        assertThat(quarkus.readValue(in, Sample.class)).isEqualTo(Json.mapper().readValue(in, Sample.class));
        for (SerializationFeature f : SerializationFeature.values()) {
            assertThat(quarkus.isEnabled(f))
                    .as(f.name())
                    .isEqualTo(Json.mapper().isEnabled(f));
        }
        for (DeserializationFeature f : DeserializationFeature.values()) {
            assertThat(quarkus.isEnabled(f))
                    .as(f.name())
                    .isEqualTo(Json.mapper().isEnabled(f));
        }
        assertThat(quarkus.getRegisteredModuleIds()).containsAll(Json.mapper().getRegisteredModuleIds());
    }

    @Test
    void answersWriteEnumsByTheirWireNamesAndReadBothSpellings() throws Exception {
        assertThat(quarkus.writeValueAsString(io.lifeline.domain.job.JobState.RUNNING))
                .isEqualTo("\"running\"");
        assertThat(quarkus.readValue("\"RUNNING\"", io.lifeline.domain.job.JobState.class))
                .isEqualTo(io.lifeline.domain.job.JobState.RUNNING);
    }
}
