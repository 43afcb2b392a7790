package io.lifeline.domain.fleet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The fleet and GPU model is pure: JDK and domain types only, and time comes from events or an injected clock. */
class FleetPurityTest {

    private static final JavaClasses MODEL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.lifeline.domain.fleet", "io.lifeline.domain.gpu");

    @Test
    void dependsOnlyOnTheJdkAndTheDomain() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.lifeline.domain..")
                .check(MODEL);
    }

    @Test
    void neverReadsTheSystemClock() {
        noClasses()
                .should()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .check(MODEL);
    }
}
