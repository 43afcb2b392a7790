package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** AWS notices from {@code fixtures/cloud/aws/}, and NTH's documented examples for the shapes not stored there. */
class AwsNoticeTranslatorTest {

    private static final String INSTANCE = "i-0b662ef9931388ba0";
    private static final String NODE = "ip-10-0-1-17.ec2.internal";
    private static final Instant RECEIVED = Instant.parse("2020-04-24T17:09:45Z");

    /**
     * The IMDS {@code events/maintenance/scheduled} example of aws/aws-node-termination-handler
     * {@code pkg/ec2metadata/ec2metadata.go} (the Go comment above ScheduledEventDetail), as listed in
     * fixtures/SOURCES.md, whose file is missing from fixtures/cloud/aws.
     */
    private static final String IMDS_MAINTENANCE = """
            [
              {
                "NotBefore" : "21 Jan 2019 09:00:43 GMT",
                "Code" : "system-reboot",
                "Description" : "scheduled reboot",
                "EventId" : "instance-event-0d59937288b749b32",
                "NotAfter" : "21 Jan 2019 09:17:23 GMT",
                "State" : "active"
              }
            ]
            """;

    /**
     * aws/aws-node-termination-handler {@code pkg/monitor/sqsevent/scheduled-change-event.go},
     * "Example AWS Health Scheduled Change EC2 Event".
     */
    private static final String HEALTH_SCHEDULED_CHANGE = """
            {
              "version": "0",
              "id": "7fb65329-1628-4cf3-a740-95fg457h1402",
              "detail-type": "AWS Health Event",
              "source": "aws.health",
              "account": "account id",
              "time": "2016-06-05T06:27:57Z",
              "region": "us-east-1",
              "resources": ["i-12345678"],
              "detail": {
                "eventArn": "arn:aws:health:region::event/id",
                "service": "EC2",
                "eventTypeCode": "AWS_EC2_DEDICATED_HOST_NETWORK_MAINTENANCE_SCHEDULED",
                "eventTypeCategory": "scheduledChange",
                "startTime": "Sat, 05 Jun 2016 15:10:09 GMT",
                "eventDescription": [{
                  "language": "en_US",
                  "latestDescription": "A description of the event will be provided here"
                }],
                "affectedEntities": [{
                  "entityValue": "i-12345678",
                  "tags": {
                    "stage": "prod",
                    "app": "my-app"
                  }
                }]
              }
            }
            """;

    /**
     * aws/aws-node-termination-handler {@code pkg/monitor/sqsevent/ec2-state-change-event.go},
     * "Example EC2 State Change Event".
     */
    private static final String STATE_CHANGE_PENDING = """
            {
              "version": "0",
              "id": "7bf73129-1428-4cd3-a780-95db273d1602",
              "detail-type": "EC2 Instance State-change Notification",
              "source": "aws.ec2",
              "account": "123456789012",
              "time": "2015-11-11T21:29:54Z",
              "region": "us-east-1",
              "resources": [
                "arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111"
              ],
              "detail": {
                "instance-id": "i-abcd1111",
                "state": "pending"
              }
            }
            """;

    private final InMemoryNodeResolver nodes = new InMemoryNodeResolver()
            .register(NODE, "aws:///us-east-1b/" + INSTANCE)
            .register("ip-10-0-2-9.ec2.internal", "aws:///us-east-1a/i-12345678")
            .register("ip-10-0-3-3.ec2.internal", "aws:///us-east-1c/i-abcd1111");
    private final AwsNoticeTranslator aws = new AwsNoticeTranslator(nodes);

    @Test
    void eventBridgeSpotInterruptionWarningIsASpotReclaimTwoMinutesAfterTheEventTime() {
        Translation t = aws.fromEventBridge(Fixtures.bytes("cloud/aws/nth_example_spot-itn-event.json"));

        assertThat(t.rejections()).isEmpty();
        Event e = t.events().get(0);
        assertThat(t.events()).hasSize(1);
        assertThat(e.type()).isEqualTo(EventType.NODE_INTERRUPTION_NOTICE);
        assertThat(e.subject()).isEqualTo(NODE);
        assertThat(e.time()).isEqualTo(Instant.parse("1970-01-01T00:00:00Z"));
        assertThat(e.source()).isEqualTo("cloud/aws");
        assertThat(e.data())
                .isEqualTo(new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "aws", Instant.parse("1970-01-01T00:02:00Z")));
        assertThat(e.id()).isEqualTo("aws/i-0b662ef9931388ba0/spot_reclaim/1970-01-01T00:02:00Z");
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void eventBridgeRebalanceRecommendationIsARebalanceWithoutDeadline() {
        Translation t =
                aws.fromEventBridge(Fixtures.bytes("cloud/aws/nth_example_rebalance-recommendation-event.json"));

        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo(NODE);
            assertThat(e.time()).isEqualTo(Instant.parse("2020-10-26T14:14:14Z"));
            assertThat(e.data()).isEqualTo(new NodeData.InterruptionNotice(NoticeKind.REBALANCE, "aws", null));
            assertThat(e.id()).isEqualTo("aws/i-0b662ef9931388ba0/rebalance/2020-10-26T14:14:00Z");
        });
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void imdsSpotInstanceActionIsASpotReclaimWithItsTimeAsDeadline() {
        Translation t = aws.fromImds(
                INSTANCE,
                ImdsDocument.SPOT_INSTANCE_ACTION,
                Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"),
                RECEIVED);

        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo(NODE);
            assertThat(e.time()).isEqualTo(RECEIVED);
            assertThat(e.data())
                    .isEqualTo(new NodeData.InterruptionNotice(
                            NoticeKind.SPOT_RECLAIM, "aws", Instant.parse("2020-04-24T17:11:44Z")));
        });
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void imdsRebalanceRecommendationUsesItsNoticeTime() {
        Translation t = aws.fromImds(
                INSTANCE,
                ImdsDocument.fromPath("/latest/meta-data/events/recommendations/rebalance"),
                Fixtures.bytes("cloud/aws/imds_events_recommendations_rebalance.json"),
                RECEIVED);

        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.time()).isEqualTo(Instant.parse("2020-10-16T19:18:24Z"));
            assertThat(e.data()).isEqualTo(new NodeData.InterruptionNotice(NoticeKind.REBALANCE, "aws", null));
        });
    }

    @Test
    void imdsScheduledMaintenanceIsAMaintenanceNoticePerActiveEvent() {
        Translation t = aws.fromImds(
                INSTANCE,
                ImdsDocument.MAINTENANCE_SCHEDULED,
                IMDS_MAINTENANCE.getBytes(StandardCharsets.UTF_8),
                RECEIVED);
        Translation canceled = aws.fromImds(
                INSTANCE,
                ImdsDocument.MAINTENANCE_SCHEDULED,
                IMDS_MAINTENANCE.replace("\"active\"", "\"canceled\"").getBytes(StandardCharsets.UTF_8),
                RECEIVED);

        assertThat(t.events())
                .singleElement()
                .satisfies(e -> assertThat(e.data())
                        .isEqualTo(new NodeData.InterruptionNotice(
                                NoticeKind.MAINTENANCE,
                                "aws",
                                Instant.parse("2019-01-21T09:00:43Z"),
                                Instant.parse("2019-01-21T09:17:23Z"))));
        assertThat(canceled.events()).isEmpty();
        assertThat(canceled.rejections()).isEmpty();
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void awsHealthScheduledChangeIsMaintenanceForEachAffectedInstance() {
        Translation t = aws.fromEventBridge(HEALTH_SCHEDULED_CHANGE.getBytes(StandardCharsets.UTF_8));

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events())
                .extracting(Event::subject, Event::data)
                .containsExactly(tuple(
                        "ip-10-0-2-9.ec2.internal",
                        new NodeData.InterruptionNotice(
                                NoticeKind.MAINTENANCE, "aws", Instant.parse("2016-06-05T15:10:09Z"))));
    }

    @Test
    void ec2StateChangeStoppingIsANoticeDueNowGoneIsNodeTerminatedAndOtherStatesSayNothing() {
        Translation pending = aws.fromEventBridge(STATE_CHANGE_PENDING.getBytes(StandardCharsets.UTF_8));
        Translation shuttingDown = aws.fromEventBridge(
                STATE_CHANGE_PENDING.replace("\"pending\"", "\"shutting-down\"").getBytes(StandardCharsets.UTF_8));
        Translation terminated = aws.fromEventBridge(
                STATE_CHANGE_PENDING.replace("\"pending\"", "\"terminated\"").getBytes(StandardCharsets.UTF_8));

        assertThat(pending.events()).isEmpty();
        assertThat(pending.rejections()).isEmpty();
        assertThat(shuttingDown.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.NODE_INTERRUPTION_NOTICE);
            assertThat(e.subject()).isEqualTo("ip-10-0-3-3.ec2.internal");
            assertThat(e.data()).isEqualTo(new NodeData.InterruptionNotice(NoticeKind.PREEMPT, "aws", e.time()));
        });
        assertThat(terminated.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.NODE_TERMINATED);
            assertThat(e.data()).isEqualTo(new NodeData.Terminated("ec2 instance terminated"));
        });
        EventContract.assertRoundTrips(shuttingDown.events());
        EventContract.assertRoundTrips(terminated.events());
    }

    /**
     * One reclaim, two channels: the EventBridge warning (the real example, with its placeholder time set to the
     * moment AWS issued this IMDS notice, two minutes before its {@code time}) and the IMDS document the agent
     * read a few seconds later. Same source and id, so the pipeline keeps one notice.
     */
    @Test
    void oneReclaimSeenByEventBridgeAndImdsIsOneEventId() {
        String warning = Fixtures.text("cloud/aws/nth_example_spot-itn-event.json")
                .replace("\"time\": \"1970-01-01T00:00:00Z\"", "\"time\": \"2020-04-24T17:09:46Z\"");
        Event fromEventBridge = aws.fromEventBridge(warning.getBytes(StandardCharsets.UTF_8))
                .events()
                .get(0);
        Event fromImds = aws.fromImds(
                        INSTANCE,
                        ImdsDocument.SPOT_INSTANCE_ACTION,
                        Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"),
                        RECEIVED)
                .events()
                .get(0);

        assertThat(fromEventBridge.id())
                .isEqualTo(fromImds.id())
                .isEqualTo("aws/i-0b662ef9931388ba0/spot_reclaim/2020-04-24T17:11:00Z");
        assertThat(fromEventBridge.source()).isEqualTo(fromImds.source());
    }

    @Test
    void anUnknownInstanceIsARejectionNotACrash() {
        AwsNoticeTranslator empty = new AwsNoticeTranslator(new InMemoryNodeResolver());

        Translation t = empty.fromEventBridge(Fixtures.bytes("cloud/aws/nth_example_spot-itn-event.json"));

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason, Translation.Rejection::detail)
                .containsExactly(tuple("unknown_instance", "instance i-0b662ef9931388ba0 is not a known node"));
        assertThat(empty.stats().rejectionsByReason()).containsEntry("unknown_instance", 1L);
    }

    @Test
    void brokenAndUnsupportedInputsAreRejectedWithReasons() {
        assertThat(aws.fromEventBridge("{not json".getBytes(StandardCharsets.UTF_8))
                        .rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("malformed_json");
        assertThat(aws.fromEventBridge(Fixtures.text("cloud/aws/nth_example_spot-itn-event.json")
                                .replace("EC2 Spot Instance Interruption Warning", "EC2 AMI State Change")
                                .getBytes(StandardCharsets.UTF_8))
                        .rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("unsupported_detail_type");
        assertThat(aws.fromImds(
                                INSTANCE,
                                ImdsDocument.SPOT_INSTANCE_ACTION,
                                "{\"action\":\"terminate\"}".getBytes(StandardCharsets.UTF_8),
                                RECEIVED)
                        .rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("missing_field");

        assertThat(aws.stats().received()).isEqualTo(3);
        assertThat(aws.stats().translated()).isZero();
        assertThat(aws.stats().rejected()).isEqualTo(3);
    }
}
