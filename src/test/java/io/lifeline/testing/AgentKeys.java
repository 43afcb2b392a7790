package io.lifeline.testing;

import io.lifeline.security.store.AgentClaims;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Agent keys for tests that poll and acknowledge commands as a trainer's agent does ({@link AgentClaims}). */
public final class AgentKeys {

    private AgentKeys() {}

    /** A fresh key, as an agent makes one per launch. */
    public static String fresh() {
        return "test-agent-" + UUID.randomUUID() + "-" + UUID.randomUUID();
    }

    /** {@code token} as the bearer token and {@code key} as the agent's key. */
    public static RequestSpecification as(String token, String key) {
        return new RequestSpecBuilder()
                .addHeader("Authorization", "Bearer " + token)
                .addHeader(AgentClaims.KEY_HEADER, key)
                .build();
    }
}
