package io.lifeline.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The short fault suite ({@code bench/faults --short}: broker restart, PostgreSQL restart, kill -9 of the leader,
 * poison records) against the packaged application, as part of the test command: it fails when any verdict fails.
 * Ports 39500..39530.
 */
class FaultSuiteIT {

    @Test
    void everyScenarioOfTheShortRunPasses() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        assertThat(classPath).as("the test class path, for the broker's JVM").contains("kafka_2.13");
        System.setProperty("faults.classpath", classPath);
        System.setProperty("faults.command", "bench/faults --short");
        Path work = Path.of("target", "faults-it").toAbsolutePath();
        Files.createDirectories(work);
        String jar =
                new File(System.getProperty("lifeline.jar", "target/quarkus-app/quarkus-run.jar")).getAbsolutePath();
        FaultSuite.Options options = FaultSuite.parse(new String[] {
            "--short",
            "--port-base",
            "39500",
            "--work",
            work.resolve("run-" + System.currentTimeMillis()).toString(),
            "--jar",
            jar
        });
        boolean passed;
        try {
            passed = FaultSuite.run(options);
        } finally {
            Child.endAllNow();
        }
        assertThat(passed)
                .as("every verdict of the short fault suite; see " + options.out() + ":\n"
                        + Files.readString(options.out()))
                .isTrue();
    }
}
