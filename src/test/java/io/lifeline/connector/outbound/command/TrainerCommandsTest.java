package io.lifeline.connector.outbound.command;

import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.asIngest;
import static io.lifeline.testing.TestTokens.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.testing.AgentKeys;
import io.lifeline.testing.KafkaProbe;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Trainer commands in the application: the one sink writes them to the command topic of the real test broker
 * (keyed by job) and queues them for agents, which long-poll and acknowledge over HTTP; an acknowledgement becomes a
 * stored {@code trainer.command_ack}. Also: without Kubernetes and without the demo, there is no cluster to act on.
 */
@QuarkusTest
class TrainerCommandsTest {

    @Inject
    TrainerCommandSink sink;

    @Inject
    ClusterActions cluster;

    private static TrainerCommand checkpoint(String id, String job) {
        return new TrainerCommand(
                id,
                job,
                CommandType.CHECKPOINT_NOW,
                Map.of("reason", "drain of gpu-7"),
                Instant.now(),
                Instant.now().plusSeconds(300));
    }

    @Test
    void aCommandIsACloudEventOnTheCommandTopicKeyedByItsJob() throws Exception {
        String job = unique("team") + "/echo";
        String id = unique("cmd");
        SendAttempt sent =
                sink.send(checkpoint(id, job), Set.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(sent.failed()).isEmpty();
        assertThat(sent.confirmed())
                .as("confirmed by the brokers and committed to the queue")
                .containsExactlyInAnyOrder("Kafka topic", "agent queue");
        List<ConsumerRecord<byte[], byte[]>> records = KafkaProbe.recordsWithKey("lifeline.commands", job, 1);
        JsonNode e = new ObjectMapper().readTree(records.get(0).value());
        assertThat(e.get("type").asText()).isEqualTo("lifeline.command.checkpoint_now");
        assertThat(e.get("id").asText()).isEqualTo(id);
        assertThat(e.get("source").asText()).isEqualTo("lifeline");
        assertThat(e.get("subject").asText()).isEqualTo(job);
        assertThat(e.get("data").get("reason").asText()).isEqualTo("drain of gpu-7");
        assertThat(e.get("data").has("deadline")).isTrue();
        assertThat(new String(
                        records.get(0).headers().lastHeader("content-type").value(), StandardCharsets.UTF_8))
                .isEqualTo("application/cloudevents+json");
    }

    @Test
    void anAgentLongPollsItsCommandsAndItsAcknowledgementIsStored() throws Exception {
        String ns = unique("team");
        String path = "/api/v1/agents/" + ns + "/echo/commands";
        String id = unique("act") + "/checkpoint";
        RequestSpecification agent = AgentKeys.as(TestTokens.ingest(), AgentKeys.fresh());
        CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(
                () -> given(agent).queryParam("wait", 20).get(path));
        Thread.sleep(500);
        long sent = System.nanoTime();
        sink.send(checkpoint(id, ns + "/echo"), Set.of("Kafka topic"));
        Response r = waiting.get(20, TimeUnit.SECONDS);
        assertThat(System.nanoTime() - sent).isLessThan(TimeUnit.SECONDS.toNanos(10));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.jsonPath().getList("id")).containsExactly(id);
        assertThat(r.jsonPath().getString("[0].type")).isEqualTo("lifeline.command.checkpoint_now");

        given(agent)
                .contentType("application/json")
                .body(Map.of("status", "accepted", "detail", "saving"))
                .post(path + "/" + id + "/ack")
                .then()
                .statusCode(202);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> stored(ns + "/echo", "trainer.command_ack").size() == 1);
        Map<String, Object> ack = stored(ns + "/echo", "trainer.command_ack").get(0);
        assertThat(ack.get("source")).isEqualTo("agent/" + ns + "/echo");
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) ack.get("data");
        assertThat(data)
                .containsEntry("commandId", id)
                .containsEntry("status", "accepted")
                .containsEntry("command", "checkpoint_now")
                .containsEntry("message", "saving");

        // Acknowledged: not delivered again.
        given(agent).queryParam("wait", 0).get(path).then().statusCode(200);
        assertThat(given(agent).queryParam("wait", 0).get(path).jsonPath().getList("id"))
                .isEmpty();
    }

    @Test
    void aPollWithNothingAnswersAnEmptyArrayAfterItsWait() {
        long t0 = System.nanoTime();
        Response r = given(AgentKeys.as(TestTokens.ingest(), AgentKeys.fresh()))
                .queryParam("wait", 1)
                .get("/api/v1/agents/" + unique("idle") + "/echo/commands");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.jsonPath().getList("$")).isEmpty();
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
    }

    @Test
    void agentRoutesRefuseViewersAndBadInput() {
        given(asViewer()).get("/api/v1/agents/team/echo/commands").then().statusCode(403);
        given(asIngest())
                .contentType("application/json")
                .body(Map.of("status", "maybe"))
                .post("/api/v1/agents/team/echo/commands/c-1/ack")
                .then()
                .statusCode(400);
        given(asIngest())
                .queryParam("wait", 0)
                .get("/api/v1/agents/Not_A_Namespace/echo/commands")
                .then()
                .statusCode(400);
    }

    @Test
    void withoutKubernetesOrTheDemoThereIsNoCluster() {
        assertThat(cluster.available()).isFalse();
        ClusterOutcome o = cluster.cordon("gpu-1");
        assertThat(o.result()).isEqualTo(ClusterOutcome.Result.FAILED);
        assertThat(o.detail()).contains("no cluster configured");
    }
}
