package io.lifeline.demo;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The simulator core stays pure: the JDK and the event catalogue only, no framework, no JSON library. */
class DemoCorePurityTest {

    @Test
    void theSimulatorCoreDependsOnlyOnTheJdkAndTheDomain() {
        JavaClasses core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.lifeline.demo");
        classes()
                .that()
                .resideInAPackage("io.lifeline.demo")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.lifeline.demo", "io.lifeline.domain..")
                .check(core);
    }
}
