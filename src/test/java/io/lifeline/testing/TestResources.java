package io.lifeline.testing;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * Declares the real components every {@code @QuarkusTest} runs against, once for the whole test run
 * (one application start): an embedded PostgreSQL server and a KRaft Kafka broker.
 */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(KafkaResource.class)
public final class TestResources {

    private TestResources() {}
}
