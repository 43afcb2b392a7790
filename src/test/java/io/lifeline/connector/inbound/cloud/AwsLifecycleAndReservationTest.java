package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lifeline.connector.EventContract;
import io.lifeline.connector.LifecycleAction;
import io.lifeline.connector.Translation;
import io.lifeline.connector.outbound.cloud.AwsAutoScalingApi;
import io.lifeline.connector.outbound.cloud.LifecycleActions;
import io.lifeline.connector.outbound.cloud.SigV4;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.Fixtures;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The AWS documentation's examples of an Auto Scaling termination lifecycle action, an interruptible Capacity
 * Reservation's interruption warning, a Capacity Block expiration warning and EC2 state changes (fixtures
 * cloud/aws/*_docs.json, their placeholders filled here), and {@code CompleteLifecycleAction} signed with SigV4
 * against a local server that records the request.
 */
class AwsLifecycleAndReservationTest {

    private static final String NODE = "ip-10-0-9-9.us-west-2.compute.internal";
    private final InMemoryNodeResolver nodes = new InMemoryNodeResolver()
            .registerInstance("i-1234567890abcdef0", NODE)
            .registerInstance("i-0cafe0000000000a1", "gpu-cr-node")
            .registerInstance("i-abcd1111", "gpu-state-node");
    private final AwsNoticeTranslator aws = new AwsNoticeTranslator(nodes);

    private static byte[] lifecycleEvent() {
        return Fixtures.text("cloud/aws/asg_instance_terminate_lifecycle_action_docs.json")
                .replace("yyyy-mm-ddThh:mm:ssZ", "2026-11-30T09:15:00Z")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anAsgTerminateLifecycleActionIsAMaintenanceNoticeAndItsActionIsKeptForCompletion() {
        Translation t = aws.fromEventBridge(lifecycleEvent());
        assertThat(t.rejections()).isEmpty();
        Event e = t.events().get(0);
        assertThat(e.type()).isEqualTo(EventType.NODE_INTERRUPTION_NOTICE);
        assertThat(e.subject()).isEqualTo(NODE);
        assertThat(e.data()).isEqualTo(new NodeData.InterruptionNotice(NoticeKind.MAINTENANCE, "aws", null));
        EventContract.assertRoundTrips(t.events());
        assertThat(aws.lifecycleActionOf(lifecycleEvent()))
                .contains(new LifecycleAction(
                        "my-asg",
                        "my-lifecycle-hook",
                        "87654321-4321-4321-4321-210987654321",
                        "i-1234567890abcdef0",
                        "us-west-2"));

        // The docs' own placeholder time is refused as such, and a launch action is not an interruption.
        assertThat(aws.fromEventBridge(Fixtures.bytes("cloud/aws/asg_instance_terminate_lifecycle_action_docs.json"))
                        .rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(CloudNotices.INVALID_TIME);
        byte[] launch = new String(lifecycleEvent(), StandardCharsets.UTF_8)
                .replace("autoscaling:EC2_INSTANCE_TERMINATING", "autoscaling:EC2_INSTANCE_LAUNCHING")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(aws.fromEventBridge(launch).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(AwsNoticeTranslator.UNSUPPORTED_LIFECYCLE_TRANSITION);
    }

    @Test
    void aCapacityReservationInterruptionWarningIsAPreemptNoticeDueAtItsTerminationTime() {
        String warning = Fixtures.text("cloud/aws/capacity_reservation_instance_interruption_warning_docs.json")
                .replace("[instance-id]", "i-0cafe0000000000a1")
                .replace("[Current time in yyyy-mm-ddThh:mm:ssZ]", "2026-11-30T10:00:00Z")
                .replace("\"yyyy-mm-ddThh:mm:ssZ\"", "\"2026-11-30T10:02:00Z\"");
        Translation t = aws.fromEventBridge(warning.getBytes(StandardCharsets.UTF_8));
        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo("gpu-cr-node");
            assertThat(e.data())
                    .isEqualTo(new NodeData.InterruptionNotice(
                            NoticeKind.PREEMPT, "aws", Instant.parse("2026-11-30T10:02:00Z")));
        });
        Translation interruptible = aws.fromEventBridge(
                warning.replace("EC2 Capacity Reservation Instance", "EC2 Interruptible Capacity Reservation Instance")
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(interruptible.events()).hasSize(1);

        Translation block =
                aws.fromEventBridge(Fixtures.text("cloud/aws/capacity_block_reservation_expiration_warning_docs.json")
                        .replace("[Current time]", "2026-11-30T09:20:00Z")
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(block.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(AwsNoticeTranslator.RESERVATION_WITHOUT_INSTANCES);
    }

    @Test
    void theDocumentedStateChangesStoppingAndShuttingDownAreNoticesStoppedAndTerminatedAreGone() {
        String doc = Fixtures.text("cloud/aws/ec2_instance_state_change_notification_docs.json");
        for (String state : List.of("stopping", "shutting-down")) {
            Event e = aws.fromEventBridge(
                            doc.replace("\"pending\"", "\"" + state + "\"").getBytes(StandardCharsets.UTF_8))
                    .events()
                    .get(0);
            assertThat(e.data())
                    .as(state)
                    .isEqualTo(new NodeData.InterruptionNotice(
                            NoticeKind.PREEMPT, "aws", Instant.parse("2021-11-11T21:29:54Z")));
        }
        for (String state : List.of("stopped", "terminated")) {
            Event e = aws.fromEventBridge(
                            doc.replace("\"pending\"", "\"" + state + "\"").getBytes(StandardCharsets.UTF_8))
                    .events()
                    .get(0);
            assertThat(e.type()).as(state).isEqualTo(EventType.NODE_TERMINATED);
        }
        assertThat(aws.fromEventBridge(doc.getBytes(StandardCharsets.UTF_8)).events())
                .isEmpty();
    }

    /** The "get-vanilla" case of AWS's Signature Version 4 test suite. */
    @Test
    void sigV4SignsAwsTestSuitesVanillaRequest() {
        Map<String, String> h = SigV4.sign(
                "GET",
                "/",
                "",
                Map.of("Host", "example.amazonaws.com"),
                new byte[0],
                "us-east-1",
                "service",
                new SigV4.Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", null),
                Instant.parse("2015-08-30T12:36:00Z"));
        assertThat(h)
                .containsEntry("X-Amz-Date", "20150830T123600Z")
                .containsEntry(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                                + "SignedHeaders=host;x-amz-date, "
                                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    }

    @Test
    void completeLifecycleActionIsASignedFormPostAndAwsErrorsAreTyped() throws Exception {
        List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
        int[] status = {200};
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            seen.add(Map.of(
                    "method",
                    x.getRequestMethod(),
                    "auth",
                    x.getRequestHeaders().getFirst("Authorization"),
                    "date",
                    x.getRequestHeaders().getFirst("X-Amz-Date"),
                    "token",
                    String.valueOf(x.getRequestHeaders().getFirst("X-Amz-Security-Token")),
                    "body",
                    new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            byte[] answer = (status[0] == 200
                            ? "<CompleteLifecycleActionResponse/>"
                            : "<ErrorResponse><Error><Code>"
                                    + "ValidationError</Code><Message>No active Lifecycle Action found with token</Message></Error>"
                                    + "</ErrorResponse>")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(status[0], answer.length);
            x.getResponseBody().write(answer);
            x.close();
        });
        server.start();
        try {
            Clock clock = Clock.fixed(Instant.parse("2026-11-30T09:30:00Z"), ZoneOffset.UTC);
            SigV4.Credentials creds = new SigV4.Credentials("AKIDEXAMPLE", "secret", "session-token");
            AwsAutoScalingApi api = new AwsAutoScalingApi(
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/",
                    () -> creds,
                    Duration.ofSeconds(5),
                    clock);
            LifecycleAction action = aws.lifecycleActionOf(lifecycleEvent()).orElseThrow();

            assertThat(api.complete(action)).isEqualTo(new LifecycleActions.Outcome.Completed());
            Map<String, String> r = seen.get(0);
            assertThat(r.get("method")).isEqualTo("POST");
            assertThat(r.get("body"))
                    .isEqualTo("Action=CompleteLifecycleAction&AutoScalingGroupName=my-asg"
                            + "&InstanceId=i-1234567890abcdef0&LifecycleActionResult=CONTINUE"
                            + "&LifecycleActionToken=87654321-4321-4321-4321-210987654321&LifecycleHookName=my-lifecycle-hook"
                            + "&Version=2011-01-01");
            assertThat(r.get("date")).isEqualTo("20261130T093000Z");
            assertThat(r.get("token")).isEqualTo("session-token");
            String expected = SigV4.sign(
                            "POST",
                            "/",
                            "",
                            Map.of(
                                    "host",
                                    "127.0.0.1:" + server.getAddress().getPort(),
                                    "content-type",
                                    "application/x-www-form-urlencoded; charset=utf-8"),
                            r.get("body").getBytes(StandardCharsets.UTF_8),
                            "us-west-2",
                            "autoscaling",
                            creds,
                            clock.instant())
                    .get("Authorization");
            assertThat(r.get("auth"))
                    .isEqualTo(expected)
                    .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-west-2/autoscaling/aws4_request, "
                            + "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=");

            status[0] = 400;
            assertThat(api.complete(action))
                    .isEqualTo(new LifecycleActions.Outcome.Refused(
                            400, "ValidationError", "No active Lifecycle Action found with token"));
            status[0] = 503;
            assertThat(api.complete(action)).isInstanceOf(LifecycleActions.Outcome.Unreachable.class);
        } finally {
            server.stop(0);
        }
        AwsAutoScalingApi nowhere = new AwsAutoScalingApi(
                "http://127.0.0.1:9/",
                () -> new SigV4.Credentials("a", "b", null),
                Duration.ofSeconds(2),
                Clock.systemUTC());
        assertThat(nowhere.complete(aws.lifecycleActionOf(lifecycleEvent()).orElseThrow()))
                .isInstanceOf(LifecycleActions.Outcome.Unreachable.class);
    }
}
