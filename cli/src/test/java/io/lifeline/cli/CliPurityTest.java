package io.lifeline.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The CLI is a client of the public REST API only: the JDK, picocli and Jackson, nothing of the server. */
class CliPurityTest {

    @Test
    void importsOnlyTheJdkPicocliAndJackson() {
        JavaClasses cli = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.lifeline.cli");
        classes()
                .that()
                .resideInAPackage("io.lifeline.cli")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.lifeline.cli..",
                        "java..",
                        "javax.net..",
                        "picocli..",
                        "com.fasterxml.jackson..",
                        "com.sun.net.httpserver..",
                        "")
                .check(cli);
    }
}
