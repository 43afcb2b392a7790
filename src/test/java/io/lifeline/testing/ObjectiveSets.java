package io.lifeline.testing;

import static io.lifeline.testing.TestTokens.asAdmin;
import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.restassured.http.ContentType;

/**
 * The goodput objectives in force, saved and put back through the API: a test that sets its own leaves the suite's as
 * it found them.
 */
public final class ObjectiveSets {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ObjectiveSets() {}

    /** The set in force, as a {@code PUT /api/v1/objectives} body. */
    public static String current() {
        try {
            JsonNode all = JSON.readTree(given(asAdmin())
                    .get("/api/v1/objectives")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
            ObjectNode body = JSON.createObjectNode();
            ArrayNode list = body.putArray("objectives");
            for (JsonNode o : all.get("objectives")) {
                ObjectNode x = list.addObject();
                for (String f :
                        new String[] {"name", "scope", "ettrTarget", "window", "lostGpuHoursLimit", "moneyLimit"}) {
                    if (o.hasNonNull(f)) {
                        x.set(f, o.get(f));
                    }
                }
            }
            return JSON.writeValueAsString(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts back a set {@link #current()} gave. */
    public static void restore(String body) {
        given(asAdmin())
                .contentType(ContentType.JSON)
                .body(body)
                .put("/api/v1/objectives")
                .then()
                .statusCode(200);
    }
}
