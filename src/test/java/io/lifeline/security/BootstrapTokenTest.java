package io.lifeline.security;

import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The first admin token, written at start-up of a database without one (the test database is new every run). */
@QuarkusTest
class BootstrapTokenTest {

    @ConfigProperty(name = "lifeline.security.bootstrap-token-file")
    String file;

    @Test
    void firstAdminTokenIsInAFileOnlyTheUserCanReadAndWorks() throws Exception {
        Path path = Path.of(file);
        assertThat(path).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
                .isEqualTo("rw-------");
        String token = Files.readString(path).trim();
        assertThat(TokenFormat.parse(token)).isNotNull();
        given(auth(token))
                .get("/api/v1/whoami")
                .then()
                .statusCode(200)
                .body("role", equalTo("admin"))
                .body("fleetWide", equalTo(true))
                .body("name", equalTo("first admin"));
        given(auth(token)).get("/api/v1/tokens").then().statusCode(200);
        String id = TokenFormat.parse(token).id();
        given(auth(token)).get("/api/v1/tokens/" + id).then().statusCode(200).body("createdBy", equalTo("bootstrap"));
    }

    @Test
    void noSecondAdminTokenIsCreatedWhileOneIsActive() {
        TokenService tokens =
                io.quarkus.arc.Arc.container().instance(TokenService.class).get();
        assertThat(tokens.createFirstAdminIfNone(t -> {
                    throw new AssertionError("must not be called when an admin token exists");
                }))
                .isNull();
    }

    @Test
    void tokenFileIsReplacedAtomicallyWithOwnerOnlyPermissions(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path target = dir.resolve("nested/admin-token");
        AdminBootstrap.writeOwnerOnly(target, "llt_first");
        AdminBootstrap.writeOwnerOnly(target, "llt_second");
        assertThat(Files.readString(target)).isEqualTo("llt_second\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.getParent())))
                .isEqualTo("rwx------");
        try (var files = Files.list(target.getParent())) {
            assertThat(files).hasSize(1);
        }
    }
}
