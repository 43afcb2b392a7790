package io.lifeline.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.DemoFleetProfile;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A Java client generated from the served OpenAPI document by openapi-generator (its CLI, the generator behind its
 * Maven plugin, copied to {@code target/tools} by the build; run in its own JVM) compiles, and lists the demo
 * fleet's jobs from a running Lifeline: the recipe of docs/api.md, end to end. The generator validates the document
 * first and refuses one with a path parameter it does not declare or an OpenID Connect scheme without its URL.
 */
@QuarkusTest
@TestProfile(DemoFleetProfile.class)
class OpenApiClientTest {

    private static final Path GENERATOR = Path.of("target", "tools", "openapi-generator-cli.jar");
    private static final Path HOME = Path.of("target", "openapi-client");

    @TestHTTPResource("/")
    URL app;

    @Test
    void aGeneratedClientCompilesAndListsTheDemoJobs() throws Exception {
        assertThat(Files.isRegularFile(GENERATOR))
                .as("%s is missing: the build copies it (mvnw test)", GENERATOR)
                .isTrue();
        Path doc = HOME.resolve("openapi.json");
        Path sources = HOME.resolve("generated");
        Path classes = HOME.resolve("classes");
        for (Path p : List.of(sources, classes)) {
            delete(p);
        }
        Files.createDirectories(classes);
        Files.writeString(
                doc,
                given().queryParam("format", "json")
                        .get("/q/openapi")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process gen = new ProcessBuilder(
                        java,
                        "-jar",
                        GENERATOR.toString(),
                        "generate",
                        "-g",
                        "java",
                        "--library",
                        "native",
                        "-i",
                        doc.toString(),
                        "-o",
                        sources.toString(),
                        "--invoker-package",
                        "org.example.lifeline",
                        "--api-package",
                        "org.example.lifeline.api",
                        "--model-package",
                        "org.example.lifeline.model",
                        "--additional-properties=openApiNullable=false,useJakartaEe=true,hideGenerationTimestamp=true,"
                                + "annotationLibrary=none,documentationProvider=none",
                        "--global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false")
                .redirectErrorStream(true)
                .redirectOutput(HOME.resolve("generator.log").toFile())
                .start();
        assertThat(gen.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(gen.exitValue())
                .as(
                        "openapi-generator (log: %s): %s",
                        HOME.resolve("generator.log"), tail(HOME.resolve("generator.log")))
                .isZero();

        List<String> files;
        try (Stream<Path> s = Files.walk(sources.resolve("src/main/java"))) {
            files = s.filter(p -> p.toString().endsWith(".java"))
                    .map(Path::toString)
                    .toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args =
                new ArrayList<>(List.of("-nowarn", "-proc:none", "-d", classes.toString(), "-cp", classpath()));
        args.addAll(files);
        StringWriter errors = new StringWriter();
        int rc = javac.run(
                null,
                null,
                new java.io.PrintStream(
                        new java.io.OutputStream() {
                            @Override
                            public void write(int b) {
                                errors.write(b);
                            }
                        },
                        true),
                args.toArray(String[]::new));
        assertThat(rc).as("the generated client compiles: %s", errors).isZero();

        String token = TestTokens.create("openapi-client", Role.VIEWER, List.of());
        List<String> expected = Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> given().header("Authorization", "Bearer " + token)
                                .get("/api/v1/jobs?limit=500")
                                .jsonPath()
                                .getList("items.name", String.class),
                        l -> l != null && l.size() >= 3);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, OpenApiClientTest.class.getClassLoader())) {
            Class<?> clientType = loader.loadClass("org.example.lifeline.ApiClient");
            Object client = clientType.getConstructor().newInstance();
            clientType
                    .getMethod("updateBaseUri", String.class)
                    .invoke(client, app.toString().replaceAll("/$", ""));
            Consumer<HttpRequest.Builder> auth = b -> b.header("Authorization", "Bearer " + token);
            clientType.getMethod("setRequestInterceptor", Consumer.class).invoke(client, auth);
            Class<?> jobsApi = loader.loadClass("org.example.lifeline.api.JobsResourceApi");
            Object api = jobsApi.getConstructor(clientType).newInstance(client);
            // GET /api/v1/jobs, operationId getJobs: (breached, cursor, limit, namespace, offset, state).
            Object page = jobsApi.getMethod(
                            "getJobs",
                            String.class,
                            String.class,
                            Integer.class,
                            String.class,
                            Integer.class,
                            String.class)
                    .invoke(api, null, null, 500, null, null, null);
            List<?> items = (List<?>) page.getClass().getMethod("getItems").invoke(page);
            List<String> names = new ArrayList<>();
            for (Object job : items) {
                names.add((String) job.getClass().getMethod("getName").invoke(job));
            }
            assertThat(names).as("the demo jobs, through the generated client").containsAll(expected);
        }
    }

    /** The jars the generated client needs: Jackson (with java.time) and the Jakarta annotations. */
    private static String classpath() throws Exception {
        List<String> jars = new ArrayList<>();
        for (Class<?> c : List.of(
                ObjectMapper.class,
                JsonFactory.class,
                JsonInclude.class,
                JavaTimeModule.class,
                jakarta.annotation.Nullable.class)) {
            jars.add(new File(c.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .getPath());
        }
        return String.join(File.pathSeparator, jars);
    }

    private static String tail(Path log) throws Exception {
        String text = Files.readString(log);
        return text.substring(Math.max(0, text.length() - 3000));
    }

    private static void delete(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
