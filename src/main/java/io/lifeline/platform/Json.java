package io.lifeline.platform;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;

/**
 * The one JSON mapper configuration. A CDI bean injects Quarkus' {@code ObjectMapper}, to which the application's
 * customizer applies {@link #configure} (so the two agree, and they agree with Quarkus' defaults: Java time, JDK 8
 * and parameter-name modules, unknown properties ignored, dates as ISO strings); code outside CDI uses {@link
 * #mapper()}. The variants below change only how much a parser accepts, never what is written. Quarkus' mapper also
 * writes the domain's wire enums by their wire names ({@code web.WireNames}, which this floor below the domain cannot
 * know); a mapper made here that writes or reads answers registers that module too.
 */
public final class Json {

    /** Nesting a document from outside may have: no notice, event or webhook body nests deeper than a few levels. */
    public static final int UNTRUSTED_NESTING = 16;

    private static final ObjectMapper SHARED = configure(new ObjectMapper());

    private Json() {}

    /**
     * The shared mapper, configured like the application's. Thread-safe; never reconfigure it (take {@link
     * ObjectMapper#copy()} or a variant below).
     */
    public static ObjectMapper mapper() {
        return SHARED;
    }

    /**
     * A mapper for documents from outside (provider notices, webhook bodies, trace lines): nesting beyond {@link
     * #UNTRUSTED_NESTING} is refused as an attack rather than parsed, strings are Jackson's default limit.
     */
    public static ObjectMapper untrusted() {
        return bounded(StreamReadConstraints.builder()
                .maxNestingDepth(UNTRUSTED_NESTING)
                .build());
    }

    /** {@link #untrusted()} with strings at most {@code maxStringLength} characters. */
    public static ObjectMapper untrusted(int maxStringLength) {
        return bounded(StreamReadConstraints.builder()
                .maxNestingDepth(UNTRUSTED_NESTING)
                .maxStringLength(maxStringLength)
                .build());
    }

    /** A mapper configured like {@link #mapper()} whose parsers refuse what exceeds {@code limits}. */
    public static ObjectMapper bounded(StreamReadConstraints limits) {
        return configure(new ObjectMapper(
                JsonFactory.builder().streamReadConstraints(limits).build()));
    }

    /**
     * Applies Lifeline's settings to {@code mapper} and returns it: what Quarkus' {@code quarkus.jackson.*} defaults
     * give its own mapper, written down so that a mapper made here reads and writes the same JSON.
     */
    public static ObjectMapper configure(ObjectMapper mapper) {
        mapper.registerModule(new Jdk8Module());
        mapper.registerModule(new JavaTimeModule());
        mapper.registerModule(new ParameterNamesModule());
        mapper.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        return mapper;
    }
}
