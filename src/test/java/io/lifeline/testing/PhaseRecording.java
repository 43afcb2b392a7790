package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A flight recording of one phase of a benchmark (the JDK's "profile" settings, execution samples every 10 ms), written
 * to {@code <dir>/<name>.jfr} when closed; a no-op when not asked for. {@code bench/profile.sh} turns the files into
 * flame graphs.
 */
public final class PhaseRecording implements AutoCloseable {

    private final Recording recording;
    private final Path file;

    private PhaseRecording(Recording recording, Path file) {
        this.recording = recording;
        this.file = file;
    }

    public static PhaseRecording start(boolean enabled, String dir, String name) {
        if (!enabled) {
            return new PhaseRecording(null, null);
        }
        try {
            Recording r = new Recording(Configuration.getConfiguration("profile"));
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            Path out = Path.of(dir);
            Files.createDirectories(out);
            r.start();
            return new PhaseRecording(r, out.resolve(name + ".jfr"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (recording == null) {
            return;
        }
        try {
            recording.stop();
            recording.dump(file);
            recording.close();
            System.out.println("[bench] flight recording written to " + file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
