package io.lifeline.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.platform.Json;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Quarkus' {@code ObjectMapper} (the REST answers, every bean that injects it) takes the settings of {@link Json}, so
 * it and the mappers made outside CDI read and write the same JSON. They are Quarkus' own defaults; written down in
 * one place, a change to them changes both.
 */
@Singleton
public class JsonSettings implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        Json.configure(mapper);
    }
}
