package io.lifeline.testing;

import io.lifeline.security.TokenService;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.quarkus.arc.Arc;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * API tokens for {@code @QuarkusTest}s: one fleet-wide token per role, created through {@link TokenService} the
 * first time it is asked for and reused for the rest of the run. Use it as
 * {@code given(TestTokens.asOperator()).get("/api/v1/events")}.
 */
public final class TestTokens {

    private static final Map<Role, String> TOKENS = new ConcurrentHashMap<>();
    /** Every token created through this class in the whole run, for the test that searches logs and answers for them. */
    private static final Set<String> CREATED = ConcurrentHashMap.newKeySet();

    private TestTokens() {}

    public static String admin() {
        return token(Role.ADMIN);
    }

    public static String operator() {
        return token(Role.OPERATOR);
    }

    public static String viewer() {
        return token(Role.VIEWER);
    }

    public static String ingest() {
        return token(Role.INGEST);
    }

    /** The shared token for {@code role}, created on first use. */
    public static String token(Role role) {
        return TOKENS.computeIfAbsent(role, r -> create("test-" + r.wireName(), r, List.of()));
    }

    /** A new token of its own (for tests that revoke, rate limit or scope one). */
    public static String create(String name, Role role, List<String> namespaces) {
        TokenService service = Arc.container().instance(TokenService.class).get();
        String token = service.create(Caller.unrestricted("tests"), name, role, namespaces, null)
                .secretToken();
        CREATED.add(token);
        return token;
    }

    /** Every token this class has created so far in this run (shared and own ones). */
    public static Set<String> createdSoFar() {
        return Set.copyOf(CREATED);
    }

    /** A request specification sending {@code token} as the bearer token. */
    public static RequestSpecification auth(String token) {
        return new RequestSpecBuilder()
                .addHeader("Authorization", "Bearer " + token)
                .build();
    }

    /** A request as the admin, ready for {@code .body(...).post(...)}: the token-carrying {@code given()}. */
    public static RequestSpecification api() {
        return io.restassured.RestAssured.given(asAdmin());
    }

    public static RequestSpecification asAdmin() {
        return auth(admin());
    }

    public static RequestSpecification asOperator() {
        return auth(operator());
    }

    public static RequestSpecification asViewer() {
        return auth(viewer());
    }

    public static RequestSpecification asIngest() {
        return auth(ingest());
    }
}
