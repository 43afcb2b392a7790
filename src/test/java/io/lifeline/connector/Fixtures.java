package io.lifeline.connector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the shared real-world samples ({@code fixtures/}, provenance in its SOURCES.md): the system property
 * {@code lifeline.fixtures} if set, else {@code ../shared/fixtures} next to the project, else
 * {@code /work/shared/fixtures}.
 */
public final class Fixtures {

    private static final Path ROOT = locate();

    private Fixtures() {
    }

    private static Path locate() {
        String prop = System.getProperty("lifeline.fixtures");
        if (prop != null && !prop.isBlank()) {
            return Paths.get(prop);
        }
        Path sibling = Paths.get(System.getProperty("user.dir")).toAbsolutePath().resolveSibling("shared").resolve("fixtures");
        if (Files.isDirectory(sibling)) {
            return sibling;
        }
        return Paths.get("/work/shared/fixtures");
    }

    public static Path root() {
        if (!Files.isDirectory(ROOT)) {
            throw new IllegalStateException("fixtures not found at " + ROOT + " (set -Dlifeline.fixtures=...)");
        }
        return ROOT;
    }

    public static Path path(String relative) {
        return root().resolve(relative);
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
