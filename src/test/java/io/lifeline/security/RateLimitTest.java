package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One token sends 1,000 ingest requests at once: the excess is refused with 429, and the server stays healthy. */
@QuarkusTest
class RateLimitTest {

    @TestHTTPResource("/api/v1/events")
    URL events;

    @Test
    void thousandConcurrentRequestsFromOneTokenAreRateLimitedAndTheServerStaysHealthy() throws Exception {
        String token = TestTokens.create("flood", Role.INGEST, List.of());
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(events.toString()))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("[]"))
                .build();
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            sent.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        List<HttpResponse<String>> answers =
                sent.stream().map(CompletableFuture::join).toList();
        Map<Integer, Long> byStatus =
                answers.stream().collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()));
        assertThat(byStatus.keySet()).as("statuses %s", byStatus).containsOnly(200, 429);
        // The bucket holds 200 and refills at 100/s: far fewer than 1,000 get through in the few seconds this takes.
        assertThat(byStatus.get(200)).isBetween(200L, 900L);
        assertThat(byStatus.get(429)).isGreaterThanOrEqualTo(100L);
        HttpResponse<String> limited =
                answers.stream().filter(r -> r.statusCode() == 429).findFirst().orElseThrow();
        assertThat(limited.headers().firstValue("Retry-After"))
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(limited.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(limited.body()).contains("/problems/rate-limited");

        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("UP"));
        // Other tokens have their own buckets.
        given(TestTokens.asIngest())
                .contentType("application/json")
                .body("[]")
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        // Reads are not rate limited.
        Function<Integer, Integer> read =
                i -> given(TestTokens.asViewer()).get("/api/v1/whoami").statusCode();
        for (int i = 0; i < 300; i++) {
            assertThat(read.apply(i)).isEqualTo(200);
        }
        given().get("/metrics")
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.matchesPattern(
                        "(?s).*\\nlifeline_security_rate_limited_total\\{kind=\"ingest\",?} [1-9].*"));
    }
}
