package io.lifeline.connector.inbound.exposition;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The result of parsing one exposition (one scrape body).
 *
 * <p>In {@link Format#PROMETHEUS_TEXT} a bad line is reported in {@link #errors()} and skipped, and the other
 * samples are kept. In {@link Format#OPENMETRICS} the first violation rejects the whole exposition, as the
 * specification requires: {@link #errors()} then holds that one error and {@link #samples()} is empty.
 */
public final class Exposition {

    private final Format format;
    private final List<Sample> samples;
    private final Map<String, MetricMetadata> metadata;
    private final List<ParseError> errors;

    Exposition(Format format, List<Sample> samples, Map<String, MetricMetadata> metadata, List<ParseError> errors) {
        this.format = format;
        this.samples = Collections.unmodifiableList(samples);
        this.metadata = Collections.unmodifiableMap(metadata);
        this.errors = Collections.unmodifiableList(errors);
    }

    /**
     * Samples that came another way than an exposition body (a Prometheus query answer, for one): no metadata and
     * no parse errors.
     */
    public static Exposition of(List<Sample> samples) {
        return new Exposition(Format.PROMETHEUS_TEXT, samples, Map.of(), List.of());
    }

    public Format format() {
        return format;
    }

    /** Every sample read, in input order. */
    public List<Sample> samples() {
        return samples;
    }

    /** Metadata by family name, for every family that had a TYPE, HELP or UNIT line. */
    public Map<String, MetricMetadata> metadata() {
        return metadata;
    }

    /** Metadata of one family, {@code null} when it had none. */
    public MetricMetadata metadata(String family) {
        return metadata.get(family);
    }

    /** Lines that could not be read (Prometheus text) or the violation that rejected the input (OpenMetrics). */
    public List<ParseError> errors() {
        return errors;
    }

    /** No errors at all. */
    public boolean isValid() {
        return errors.isEmpty();
    }
}
