package io.lifeline.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.function.Function;

/**
 * Answers write these domain enums as the wire names their query parameters take ({@code groupBy=instanceType}
 * answers {@code "groupBy": "instanceType"}), not as Java constant names; the core stays free of Jackson.
 */
@Singleton
public class WireNames implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        SimpleModule m = new SimpleModule("lifeline-wire-names");
        m.addSerializer(GroupBy.class, serializer(GroupBy::wire));
        m.addSerializer(InterruptionCause.class, serializer(InterruptionCause::wire));
        mapper.registerModule(m);
    }

    private static <E> JsonSerializer<E> serializer(Function<E, String> wire) {
        return new JsonSerializer<>() {
            @Override
            public void serialize(E value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                gen.writeString(wire.apply(value));
            }
        };
    }
}
