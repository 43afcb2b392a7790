package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real-world samples the tests read, vendored under {@code src/test/resources/fixtures/} (origins in its
 * {@code SOURCES.md}) and read from the test classpath only: a fresh clone has everything it needs.
 */
public final class Fixtures {

    private static final Path ROOT = locate();

    private Fixtures() {}

    private static Path locate() {
        URL sources = Fixtures.class.getResource("/fixtures/SOURCES.md");
        if (sources == null) {
            throw new IllegalStateException("fixtures/SOURCES.md is not on the test classpath");
        }
        try {
            return Path.of(sources.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixtures folder. */
    public static Path root() {
        return ROOT;
    }

    public static Path path(String relative) {
        Path p = ROOT.resolve(relative).normalize();
        if (!p.startsWith(ROOT)) {
            throw new IllegalArgumentException("fixture path leaves the fixtures folder: " + relative);
        }
        return p;
    }

    public static byte[] bytes(String relative) {
        try {
            return Files.readAllBytes(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String relative) {
        return new String(bytes(relative), StandardCharsets.UTF_8);
    }
}
