package io.lifeline.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.Deserializers;
import com.fasterxml.jackson.databind.deser.KeyDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.lifeline.domain.support.WireEnum;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * Answers write every {@link WireEnum} by its wire name ({@code "state": "running"}), values and map keys alike, and
 * read one back from either spelling, the wire name or the Java constant that earlier releases wrote (requests from
 * clients of those releases, rows stored as an answer's JSON by them). The core stays free of Jackson: an enum opts in
 * by implementing {@link WireEnum}, and this one module maps them all.
 */
@Singleton
public class WireNames implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    /** The module, for mappers made outside CDI that write or read answers. */
    public static SimpleModule module() {
        return new Module();
    }

    private static final class Module extends SimpleModule {
        Module() {
            super("lifeline-wire-names");
            addSerializer(WireEnum.class, new JsonSerializer<WireEnum>() {
                @Override
                public void serialize(WireEnum value, JsonGenerator gen, SerializerProvider serializers)
                        throws IOException {
                    gen.writeString(value.wire());
                }
            });
            addKeySerializer(WireEnum.class, new JsonSerializer<WireEnum>() {
                @Override
                public void serialize(WireEnum value, JsonGenerator gen, SerializerProvider serializers)
                        throws IOException {
                    gen.writeFieldName(value.wire());
                }
            });
        }

        @Override
        public void setupModule(SetupContext context) {
            super.setupModule(context);
            context.addDeserializers(new Deserializers.Base() {
                @Override
                public JsonDeserializer<?> findEnumDeserializer(
                        Class<?> type, DeserializationConfig config, BeanDescription beanDesc) {
                    return WireEnum.class.isAssignableFrom(type) ? new Reader(enumClass(type)) : null;
                }
            });
            context.addKeyDeserializers((KeyDeserializers)
                    (type, config, beanDesc) -> type.isEnumType() && WireEnum.class.isAssignableFrom(type.getRawClass())
                            ? new KeyReader(enumClass(type.getRawClass()))
                            : null);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Class<? extends Enum> enumClass(Class<?> type) {
        return (Class<? extends Enum>) (type.isEnum() ? type : type.getSuperclass());
    }

    /** A value from its wire name or its Java constant. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class Reader extends JsonDeserializer<Enum<?>> {
        private final Class<? extends Enum> type;

        Reader(Class<? extends Enum> type) {
            this.type = type;
        }

        @Override
        public Enum<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (Enum<?>) ctxt.handleUnexpectedToken(type, p);
            }
            String s = p.getText();
            Object e = WireEnum.parse((Class) type, s).orElse(null);
            return (Enum<?>) (e != null ? e : ctxt.handleWeirdStringValue(type, s, "not one of %s", names(type)));
        }
    }

    /** A map key from its wire name or its Java constant. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class KeyReader extends KeyDeserializer {
        private final Class<? extends Enum> type;

        KeyReader(Class<? extends Enum> type) {
            this.type = type;
        }

        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            Object e = WireEnum.parse((Class) type, key).orElse(null);
            return e != null ? e : ctxt.handleWeirdKey(type, key, "not one of %s", names(type));
        }
    }

    @SuppressWarnings("rawtypes")
    private static String names(Class<? extends Enum> type) {
        return java.util.Arrays.stream(type.getEnumConstants())
                .map(e -> WireEnum.wireOf((Enum<?>) e))
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
