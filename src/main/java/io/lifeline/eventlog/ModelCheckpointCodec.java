package io.lifeline.eventlog;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.lifeline.domain.SavedModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The bytes of a model checkpoint: the {@link SavedModel} as JSON, GZIP-compressed. The mapper is this class's own, not
 * the application's, so that the stored format does not change with the REST API's JSON settings; {@link #FORMAT} names
 * it and must change whenever the saved records change shape or meaning, so that a start-up never restores a checkpoint
 * it would misread (it replays the whole log instead).
 */
public final class ModelCheckpointCodec {

    /** The format this release writes and reads. */
    public static final int FORMAT = 11;

    private static final int BUFFER = 1 << 16;

    private final ObjectMapper json = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** The model's bytes in {@link #FORMAT}. */
    public byte[] encode(SavedModel model) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(BUFFER);
        try (OutputStream out = new FastGzip(bytes)) {
            json.writeValue(out, model);
        } catch (IOException e) {
            throw new UncheckedIOException("model checkpoint could not be encoded", e);
        }
        return bytes.toByteArray();
    }

    /**
     * The model back from {@link #encode}'s bytes.
     *
     * @throws IOException when the bytes are not a checkpoint of this format
     */
    public SavedModel decode(byte[] body) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body), BUFFER)) {
            return json.readValue(in, SavedModel.class);
        }
    }

    /** GZIP at its fastest level: the checkpoint is written every few minutes, and speed matters more than size. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(OutputStream out) throws IOException {
            super(out, BUFFER);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }
}
