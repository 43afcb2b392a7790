package io.lifeline.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The layers of docs/architecture.md, enforced: dependencies point one way, from the edges inward, no two packages
 * depend on each other (at any depth), and the Kubernetes and Kafka clients stay in their connectors and transports.
 *
 * <pre>
 *   edges:    app, api, ingest, connector, ui, demo   (HTTP, Kafka, Kubernetes, the browser, the simulator); api on top
 *             (every JAX-RS resource), connector split into inbound and outbound
 *   web:      problem documents, the one error-mapping table, the security gate
 *   services: action, policy, alert, metrics, security
 *   runtime:  the model host (one writer thread)
 *   eventlog: the event log on PostgreSQL, offsets, leadership, model checkpoints
 *   codec:    event JSON
 *   domain:   the pure model                          config: typed settings, usable by every layer but the core
 *   platform: back-off, named daemon threads, the JSON mapper configuration, what a log line is about (JDK, Jackson,
 *             the logger), beside the domain at the bottom: usable by every layer but the domain
 * </pre>
 */
class LayersTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.lifeline");

    @Test
    void topLevelPackagesAreFreeOfCycles() {
        slices().matching("io.lifeline.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    /**
     * No cycle below the top level either: every package on its own ({@code (**)}: {@code domain} and
     * {@code domain.fleet} are two slices), and every subtree at the second and third level ({@code domain.job..}
     * against {@code domain.fleet..}). A parent may use its children; a child never uses its parent. A failure lists
     * each cycle with the dependencies that make it.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io.lifeline.(**)", "io.lifeline.(*).(*)..", "io.lifeline.(*).(*).(*).."})
    void packagesAreFreeOfCyclesAtEveryDepth(String slicing) {
        slices().matching(slicing).should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void layersPointInwardOnly() {
        layeredArchitecture()
                .consideringOnlyDependenciesInAnyPackage("io.lifeline..")
                .layer("Edges")
                .definedBy(
                        "io.lifeline.app..",
                        "io.lifeline.api..",
                        "io.lifeline.ingest..",
                        "io.lifeline.connector..",
                        "io.lifeline.ui..",
                        "io.lifeline.demo..")
                .layer("Web")
                .definedBy("io.lifeline.web..")
                .layer("Services")
                .definedBy(
                        "io.lifeline.action..",
                        "io.lifeline.policy..",
                        "io.lifeline.alert..",
                        "io.lifeline.metrics..",
                        "io.lifeline.objective..",
                        "io.lifeline.security..")
                .layer("Runtime")
                .definedBy("io.lifeline.runtime..")
                .layer("EventLog")
                .definedBy("io.lifeline.eventlog..")
                .layer("Codec")
                .definedBy("io.lifeline.codec..")
                .layer("Domain")
                .definedBy("io.lifeline.domain..")
                .layer("Config")
                .definedBy("io.lifeline.config..")
                .layer("Platform")
                .definedBy("io.lifeline.platform..")
                .whereLayer("Edges")
                .mayOnlyBeAccessedByLayers("Edges")
                .whereLayer("Web")
                .mayOnlyBeAccessedByLayers("Edges")
                .whereLayer("Services")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services")
                .whereLayer("Runtime")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services")
                .whereLayer("EventLog")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services", "Runtime")
                .whereLayer("Codec")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services", "Runtime", "EventLog")
                .whereLayer("Config")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services", "Runtime", "EventLog")
                .whereLayer("Platform")
                .mayOnlyBeAccessedByLayers("Edges", "Web", "Services", "Runtime", "EventLog", "Codec", "Config")
                .check(MAIN);
    }

    @Test
    void domainUsesOnlyTheJdk() {
        classes()
                .that()
                .resideInAPackage("io.lifeline.domain..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.lifeline.domain..")
                .check(MAIN);
    }

    @Test
    void codecUsesOnlyTheJdkJacksonAndTheDomain() {
        classes()
                .that()
                .resideInAPackage("io.lifeline.codec..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..",
                        "com.fasterxml.jackson..",
                        "io.lifeline.domain..",
                        "io.lifeline.codec..",
                        "io.lifeline.platform..")
                .check(MAIN);
    }

    /** The platform is the floor: it knows no Lifeline package, so every layer above the domain can stand on it. */
    @Test
    void platformUsesOnlyTheJdkJacksonAndTheLogger() {
        classes()
                .that()
                .resideInAPackage("io.lifeline.platform..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..", "com.fasterxml.jackson..", "org.jboss.logging..", "io.lifeline.platform..")
                .check(MAIN);
    }

    @Test
    void theDashboardNeverTouchesAStore() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.ui..")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameEndingWith("Store")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("io.lifeline.eventlog..")
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage("javax.sql..", "io.agroal..")
                .check(MAIN);
    }

    @Test
    void connectorsPlugInThroughPortsNotTheDemo() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.connector..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.lifeline.demo..")
                .check(MAIN);
    }

    /**
     * The Kubernetes client (fabric8) stays in the Kubernetes connectors: watchers and admission coming in, cluster
     * actions going out.
     */
    @Test
    void onlyTheKubernetesConnectorsUseTheKubernetesClient() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "io.lifeline.connector.inbound.kube..", "io.lifeline.connector.outbound.kube..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.fabric8..")
                .check(MAIN);
    }

    /**
     * The Kafka client stays in the Kafka transports: {@code ingest.kafka} (the consumer loop, event ingest, consumer
     * lag), {@code connector.inbound.kafka} (the notices topic) and {@code connector.outbound.kafka} (the commands topic).
     */
    @Test
    void onlyTheKafkaTransportsUseTheKafkaClient() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "io.lifeline.ingest.kafka..",
                        "io.lifeline.connector.inbound.kafka..",
                        "io.lifeline.connector.outbound.kafka..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.kafka..")
                .check(MAIN);
    }

    /**
     * What comes in and what goes out are separate: an inbound connector never reaches an outbound one, nor the other
     * way round. Code both need lives in {@code io.lifeline.connector} itself ({@code Translation},
     * {@code LifecycleAction}).
     */
    @Test
    void inboundConnectorsDoNotUseOutboundOnes() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.connector.inbound..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.lifeline.connector.outbound..")
                .check(MAIN);
    }

    @Test
    void outboundConnectorsDoNotUseInboundOnes() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.connector.outbound..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.lifeline.connector.inbound..")
                .check(MAIN);
    }

    /**
     * JAX-RS (and RESTEasy) belongs to the REST API and the web layer: every resource lives in {@code io.lifeline.api},
     * and the exception mappers, filters and problem documents in {@code io.lifeline.web}. Services, connectors and
     * ingest stay free of HTTP types, so they can be called from a background loop, Kafka or the dashboard alike.
     */
    @Test
    void onlyTheApiAndTheWebLayerUseJaxRs() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.lifeline.api..", "io.lifeline.web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("jakarta.ws.rs..", "org.jboss.resteasy..")
                .check(MAIN);
    }

    /** Every REST resource (a class annotated {@code @Path}) lives in {@code io.lifeline.api}. */
    @Test
    void everyRestResourceLivesInTheApi() {
        classes()
                .that()
                .areAnnotatedWith("jakarta.ws.rs.Path")
                .should()
                .resideInAPackage("io.lifeline.api..")
                .check(MAIN);
    }

    /** So does every resource method, also one whose class carries no {@code @Path} of its own (a sub-resource). */
    @Test
    void everyRestMethodLivesInTheApi() {
        methods()
                .that()
                .areAnnotatedWith("jakarta.ws.rs.Path")
                .should()
                .beDeclaredInClassesThat()
                .resideInAPackage("io.lifeline.api..")
                .check(MAIN);
    }

    /**
     * The REST API sits on top of the edges: it may use the connectors, ingest and everything below, and nothing but
     * the start-up ({@code app}) depends on it.
     */
    @Test
    void nothingBelowTheApiDependsOnIt() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.lifeline.api..", "io.lifeline.app..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.lifeline.api..")
                .check(MAIN);
    }

    @Test
    void onlyTheWebLayerWritesProblemDocuments() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.lifeline.web..")
                .should()
                .callConstructor(
                        io.lifeline.web.Problem.class,
                        String.class,
                        String.class,
                        int.class,
                        String.class,
                        java.util.List.class)
                .check(MAIN);
    }

    /**
     * Classes that still run SQL, or see JDBC types, outside a store package, each with the reason it has not moved
     * yet. The list only shrinks: {@link #theClassesStillOutsideAStoreStillUseJdbc} fails for an entry that no longer
     * needs to be here. None is left.
     */
    private static final Map<String, String> JDBC_OUTSIDE_A_STORE = Map.of();

    private static final String[] JDBC = {"java.sql..", "javax.sql..", "io.agroal.."};

    /**
     * SQL only in stores: JDBC and the connection pool are used by store packages ({@code io.lifeline.eventlog}, the
     * event log, and each capability's {@code store} package) and by {@code app}, which starts the embedded
     * PostgreSQL and runs its bootstrap statements. Everyone else calls a store method, which fails with
     * {@code StoreUnavailableException}, never {@code SQLException}.
     */
    @Test
    void onlyStoresUseJdbc() {
        DescribedPredicate<JavaClass> listed = DescribedPredicate.describe(
                "are listed in JDBC_OUTSIDE_A_STORE",
                c -> JDBC_OUTSIDE_A_STORE.containsKey(c.getName().split("\\$")[0]));
        noClasses()
                .that()
                .resideOutsideOfPackages("..store..", "io.lifeline.eventlog..", "io.lifeline.app..")
                .and(DescribedPredicate.not(listed))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(JDBC)
                .because("SQL runs only in stores (docs/architecture.md, Persistence)")
                .check(MAIN);
    }

    @Test
    void theClassesStillOutsideAStoreStillUseJdbc() {
        Predicate<Dependency> jdbc = d -> d.getTargetClass().getPackageName().startsWith("java.sql")
                || d.getTargetClass().getPackageName().startsWith("javax.sql")
                || d.getTargetClass().getPackageName().startsWith("io.agroal");
        for (String name : JDBC_OUTSIDE_A_STORE.keySet()) {
            boolean uses = MAIN.stream()
                    .filter(c -> c.getName().equals(name) || c.getName().startsWith(name + "$"))
                    .anyMatch(c -> c.getDirectDependenciesFromSelf().stream().anyMatch(jdbc));
            org.assertj.core.api.Assertions.assertThat(uses)
                    .as("%s no longer uses JDBC: take it off JDBC_OUTSIDE_A_STORE", name)
                    .isTrue();
        }
    }
}
