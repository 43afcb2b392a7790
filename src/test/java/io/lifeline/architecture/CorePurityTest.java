package io.lifeline.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The domain core and the simulator core are pure: no framework, persistence, messaging, cluster or UI class,
 * no JSON library, and no reading of the system clock (time is injected).
 */
class CorePurityTest {

    private static final String[] FRAMEWORKS = {
        "io.quarkus..",
        "jakarta..",
        "javax.persistence..",
        "org.hibernate..",
        "io.fabric8..",
        "org.apache.kafka..",
        "com.vaadin..",
        "io.smallrye..",
        "org.eclipse.microprofile..",
        "io.micrometer..",
        "io.agroal..",
        "org.jboss..",
        "com.fasterxml.."
    };

    private final JavaClasses core = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.lifeline.domain", "io.lifeline.demo");

    @Test
    void coreImportsNoFrameworkOrIoLibrary() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.domain..")
                .or()
                .resideInAPackage("io.lifeline.demo")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(FRAMEWORKS)
                .check(core);
    }

    @Test
    void coreDoesNotDependOnTheEdges() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.domain..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.lifeline.ingest..",
                        "io.lifeline.eventlog..",
                        "io.lifeline.runtime..",
                        "io.lifeline.api..",
                        "io.lifeline.ui..",
                        "io.lifeline.connector..",
                        "io.lifeline.demo..")
                .check(core);
    }

    @Test
    void coreNeverReadsTheSystemClock() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.domain..")
                .or()
                .resideInAPackage("io.lifeline.demo")
                .should()
                .callMethod(java.time.Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(java.time.Clock.class, "systemUTC")
                .check(core);
    }
}
