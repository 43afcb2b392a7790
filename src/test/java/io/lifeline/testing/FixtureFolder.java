package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The files of one fixtures folder, for the tests that read every variant a producer sends: such a test names each
 * file with its expected outcome, and {@link #unnamed} says which files of the folder it forgot, so a sample added to
 * the folder without an expectation fails the test that owns the folder.
 */
public final class FixtureFolder {

    private FixtureFolder() {}

    /** Every regular file under {@code folder}, as paths relative to the fixtures root ({@code cloud/aws/x.json}). */
    public static Set<String> files(String folder) {
        try (Stream<Path> files = Files.walk(Fixtures.path(folder))) {
            Set<String> out = new TreeSet<>();
            files.filter(Files::isRegularFile)
                    .map(p -> Fixtures.root().relativize(p).toString().replace('\\', '/'))
                    .forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files of {@code folder} that {@code named} does not hold. */
    public static List<String> unnamed(String folder, Collection<String> named) {
        return files(folder).stream().filter(f -> !named.contains(f)).toList();
    }
}
