package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every AWS sample of {@code fixtures/cloud/aws} (EventBridge events of each kind, Auto Scaling notifications sent straight
 * to SQS, IMDS documents, from AWS's documentation, aws-node-termination-handler, the EC2 metadata mock and the Lambda
 * event fixtures; origins in SOURCES.md) is read into the notices it announces, with their deadline and window end, or
 * refused with the reason a user can act on. Documentation samples with placeholders are refused as they are
 * ({@code invalid_time}) and read once the placeholders are filled.
 */
class AwsVariantsTest {

    private static final Instant RECEIVED = Instant.parse("2026-11-30T10:00:00Z");
    private static final InMemoryNodeResolver NODES = new InMemoryNodeResolver()
            .registerInstance("i-1234567890abcdef0", "node-docs")
            .registerInstance("i-0b662ef9931388ba0", "node-nth")
            .registerInstance("i-12345678", "node-health")
            .registerInstance("i-040107f6ba000e5ee", "node-sqs")
            .registerInstance("i-0cafe0000000000a1", "node-cr")
            .registerInstance("i-abcd1111", "node-state")
            .registerInstance("i-0imds00000000001", "node-imds");
    private static final AwsNoticeTranslator AWS = new AwsNoticeTranslator(NODES);
    private static final AwsNoticeTranslator WITH_HEARTBEAT = new AwsNoticeTranslator(NODES, Duration.ofHours(1));
    private static final AwsNoticeTranslator REDACTED_KNOWN =
            new AwsNoticeTranslator(new InMemoryNodeResolver().registerInstance("i-XXXXXXXXXXXXXXX", "node-redacted"));

    /** What a variant must become: the notices (or terminations) it announces, or the reasons it is refused. */
    record Outcome(List<Expected> events, List<String> reasons) {
        static Outcome nothing() {
            return new Outcome(List.of(), List.of());
        }

        static Outcome refused(String... reasons) {
            return new Outcome(List.of(), List.of(reasons));
        }

        static Outcome read(Expected... events) {
            return new Outcome(List.of(events), List.of());
        }
    }

    /** One expected event: a notice (kind, deadline and window end may be null) or, with kind null, a termination. */
    record Expected(String node, NoticeKind kind, String deadline, String windowEnd, String time) {
        static Expected notice(String node, NoticeKind kind, String deadline, String windowEnd, String time) {
            return new Expected(node, kind, deadline, windowEnd, time);
        }

        static Expected terminated(String node, String time) {
            return new Expected(node, null, null, null, time);
        }
    }

    record Variant(String fixture, String how, Function<byte[], Translation> translate, Outcome outcome) {
        @Override
        public String toString() {
            return fixture + " (" + how + ")";
        }
    }

    private static Variant eb(String file, String how, Outcome outcome, String... replacements) {
        return new Variant(file, how, b -> AWS.fromEventBridge(fill(b, replacements)), outcome);
    }

    private static Variant imds(String file, ImdsDocument document, Outcome outcome, String... replacements) {
        return new Variant(
                file,
                "IMDS " + document.path(),
                b -> AWS.fromImds("i-0imds00000000001", document, fill(b, replacements), RECEIVED),
                outcome);
    }

    private static byte[] fill(byte[] body, String... replacements) {
        String s = new String(body, StandardCharsets.UTF_8);
        for (int i = 0; i < replacements.length; i += 2) {
            s = s.replace(replacements[i], replacements[i + 1]);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Variant> variants() {
        String now = "2026-11-30T09:15:00Z";
        return Stream.of(
                // EventBridge: spot interruption warnings
                eb(
                        "cloud/aws/nth_example_spot-itn-event.json",
                        "as sent, time 1970",
                        Outcome.read(Expected.notice(
                                "node-nth",
                                NoticeKind.SPOT_RECLAIM,
                                "1970-01-01T00:02:00Z",
                                null,
                                "1970-01-01T00:00:00Z"))),
                eb(
                        "cloud/aws/eventbridge_spot_interruption_warning_docs.json",
                        "placeholder time",
                        Outcome.refused(CloudNotices.INVALID_TIME)),
                eb(
                        "cloud/aws/eventbridge_spot_interruption_warning_docs.json",
                        "time filled",
                        Outcome.read(Expected.notice(
                                "node-docs", NoticeKind.SPOT_RECLAIM, "2026-11-30T09:17:00Z", null, now)),
                        "yyyy-mm-ddThh:mm:ssZ",
                        now),
                // EventBridge: rebalance recommendations
                eb(
                        "cloud/aws/nth_example_rebalance-recommendation-event.json",
                        "as sent",
                        Outcome.read(
                                Expected.notice("node-nth", NoticeKind.REBALANCE, null, null, "2020-10-26T14:14:14Z"))),
                eb(
                        "cloud/aws/eventbridge_rebalance_recommendation_docs.json",
                        "placeholder time",
                        Outcome.refused(CloudNotices.INVALID_TIME)),
                eb(
                        "cloud/aws/eventbridge_rebalance_recommendation_docs.json",
                        "time filled",
                        Outcome.read(Expected.notice("node-docs", NoticeKind.REBALANCE, null, null, now)),
                        "yyyy-mm-ddThh:mm:ssZ",
                        now),
                // EventBridge: Auto Scaling termination lifecycle actions
                eb(
                        "cloud/aws/asg_instance_terminate_lifecycle_action_docs.json",
                        "placeholder time",
                        Outcome.refused(CloudNotices.INVALID_TIME)),
                eb(
                        "cloud/aws/asg_instance_terminate_lifecycle_action_docs.json",
                        "time filled",
                        Outcome.read(Expected.notice("node-docs", NoticeKind.MAINTENANCE, null, null, now)),
                        "yyyy-mm-ddThh:mm:ssZ",
                        now),
                new Variant(
                        "cloud/aws/asg_instance_terminate_lifecycle_action_docs.json",
                        "time filled, heartbeat timeout 1 h",
                        b -> WITH_HEARTBEAT.fromEventBridge(fill(b, "yyyy-mm-ddThh:mm:ssZ", now)),
                        Outcome.read(Expected.notice(
                                "node-docs", NoticeKind.MAINTENANCE, "2026-11-30T10:15:00Z", null, now))),
                eb(
                        "cloud/aws/eventbridge_asg_terminate_lifecycle_action_epoch_time_lambda_events.json",
                        "as sent, time 1970",
                        Outcome.read(Expected.notice(
                                "node-docs", NoticeKind.MAINTENANCE, null, null, "1970-01-01T00:00:00Z"))),
                eb(
                        "cloud/aws/eventbridge_asg_launch_lifecycle_action_lambda_events.json",
                        "a launch",
                        Outcome.refused(AwsNoticeTranslator.UNSUPPORTED_DETAIL_TYPE)),
                eb(
                        "cloud/aws/eventbridge_asg_lifecycle_test_notification_nth.json",
                        "test notification",
                        Outcome.nothing()),
                // Auto Scaling notifications straight to SQS (no EventBridge envelope)
                eb(
                        "cloud/aws/sqs_asg_lifecycle_terminating_notification_nth.json",
                        "as sent",
                        Outcome.read(Expected.notice(
                                "node-sqs", NoticeKind.MAINTENANCE, null, null, "2022-01-31T23:07:47.872Z"))),
                eb("cloud/aws/sqs_asg_test_notification_nth.json", "test notification", Outcome.nothing()),
                // EventBridge: capacity reservations
                eb(
                        "cloud/aws/capacity_reservation_instance_interruption_warning_docs.json",
                        "placeholders",
                        Outcome.refused(CloudNotices.INVALID_TIME)),
                eb(
                        "cloud/aws/capacity_reservation_instance_interruption_warning_docs.json",
                        "placeholders filled",
                        Outcome.read(Expected.notice("node-cr", NoticeKind.PREEMPT, "2026-11-30T09:17:00Z", null, now)),
                        "[instance-id]",
                        "i-0cafe0000000000a1",
                        "[Current time in yyyy-mm-ddThh:mm:ssZ]",
                        now,
                        "\"yyyy-mm-ddThh:mm:ssZ\"",
                        "\"2026-11-30T09:17:00Z\""),
                eb(
                        "cloud/aws/capacity_block_reservation_expiration_warning_docs.json",
                        "placeholder time",
                        Outcome.refused(CloudNotices.INVALID_TIME)),
                eb(
                        "cloud/aws/capacity_block_reservation_expiration_warning_docs.json",
                        "time filled",
                        Outcome.refused(AwsNoticeTranslator.RESERVATION_WITHOUT_INSTANCES),
                        "[Current time]",
                        now),
                // EventBridge: instance state changes
                eb("cloud/aws/ec2_instance_state_change_notification_docs.json", "pending", Outcome.nothing()),
                eb(
                        "cloud/aws/ec2_instance_state_change_notification_docs.json",
                        "stopping",
                        Outcome.read(Expected.notice(
                                "node-state",
                                NoticeKind.PREEMPT,
                                "2021-11-11T21:29:54Z",
                                null,
                                "2021-11-11T21:29:54Z")),
                        "\"pending\"",
                        "\"stopping\""),
                eb(
                        "cloud/aws/ec2_instance_state_change_notification_docs.json",
                        "terminated",
                        Outcome.read(Expected.terminated("node-state", "2021-11-11T21:29:54Z")),
                        "\"pending\"",
                        "\"terminated\""),
                // EventBridge: AWS Health scheduled changes
                eb(
                        "cloud/aws/eventbridge_health_scheduled_change_nth.json",
                        "no endTime",
                        Outcome.read(Expected.notice(
                                "node-health",
                                NoticeKind.MAINTENANCE,
                                "2016-06-05T15:10:09Z",
                                null,
                                "2016-06-05T06:27:57Z"))),
                eb(
                        "cloud/aws/eventbridge_health_instance_retirement_redacted_with_comment_custodian.json",
                        "a comment in the JSON",
                        Outcome.refused(CloudNotices.MALFORMED_JSON)),
                eb(
                        "cloud/aws/eventbridge_health_instance_retirement_redacted_custodian.json",
                        "redacted instance",
                        Outcome.refused(CloudNotices.UNKNOWN_INSTANCE)),
                new Variant(
                        "cloud/aws/eventbridge_health_instance_retirement_redacted_custodian.json",
                        "redacted instance known as a node",
                        REDACTED_KNOWN::fromEventBridge,
                        Outcome.read(Expected.notice(
                                "node-redacted",
                                NoticeKind.MAINTENANCE,
                                "2019-06-26T15:00:00Z",
                                "2019-06-26T15:00:00Z",
                                "2019-06-26T15:00:00Z"))),
                // IMDS documents
                imds(
                        "cloud/aws/imds_spot_instance_action.json",
                        ImdsDocument.SPOT_INSTANCE_ACTION,
                        Outcome.read(Expected.notice(
                                "node-imds",
                                NoticeKind.SPOT_RECLAIM,
                                "2020-04-24T17:11:44Z",
                                null,
                                RECEIVED.toString()))),
                imds(
                        "cloud/aws/imds_spot_instance_action_stop_docs.json",
                        ImdsDocument.SPOT_INSTANCE_ACTION,
                        Outcome.read(Expected.notice(
                                "node-imds",
                                NoticeKind.SPOT_RECLAIM,
                                "2017-09-18T08:22:00Z",
                                null,
                                RECEIVED.toString()))),
                imds(
                        "cloud/aws/imds_spot_termination_time_legacy_docs.txt",
                        ImdsDocument.SPOT_TERMINATION_TIME,
                        Outcome.read(Expected.notice(
                                "node-imds",
                                NoticeKind.SPOT_RECLAIM,
                                "2015-01-05T18:02:00Z",
                                null,
                                RECEIVED.toString()))),
                imds(
                        "cloud/aws/imds_spot_termination_time_legacy_docs.txt",
                        ImdsDocument.SPOT_TERMINATION_TIME,
                        Outcome.nothing(),
                        "2015-01-05T18:02:00Z",
                        "not-a-time"),
                imds(
                        "cloud/aws/imds_events_recommendations_rebalance.json",
                        ImdsDocument.REBALANCE_RECOMMENDATION,
                        Outcome.read(Expected.notice(
                                "node-imds", NoticeKind.REBALANCE, null, null, "2020-10-16T19:18:24Z"))),
                imds(
                        "cloud/aws/imds_events_recommendations_rebalance_docs.json",
                        ImdsDocument.REBALANCE_RECOMMENDATION,
                        Outcome.read(Expected.notice(
                                "node-imds", NoticeKind.REBALANCE, null, null, "2020-10-27T08:22:00Z"))),
                imds(
                        "cloud/aws/imds_events_maintenance_scheduled.json",
                        ImdsDocument.MAINTENANCE_SCHEDULED,
                        Outcome.read(Expected.notice(
                                "node-imds",
                                NoticeKind.MAINTENANCE,
                                "2019-01-21T09:00:43Z",
                                "2019-01-21T09:17:23Z",
                                RECEIVED.toString()))),
                imds(
                        "cloud/aws/imds_events_maintenance_history_canceled_completed_docs.json",
                        ImdsDocument.MAINTENANCE_SCHEDULED,
                        Outcome.nothing()),
                imds(
                        "cloud/aws/imds_events_maintenance_scheduled_object_completed_aemm.json",
                        ImdsDocument.MAINTENANCE_SCHEDULED,
                        Outcome.nothing()),
                imds(
                        "cloud/aws/imds_events_maintenance_scheduled_object_completed_aemm.json",
                        ImdsDocument.MAINTENANCE_SCHEDULED,
                        Outcome.read(Expected.notice(
                                "node-imds",
                                NoticeKind.MAINTENANCE,
                                "2020-01-01T01:03:47Z",
                                "2020-01-07T01:03:47Z",
                                RECEIVED.toString())),
                        "\"completed\"",
                        "\"active\""),
                imds(
                        "cloud/aws/imds_autoscaling_target_lifecycle_state_docs.txt",
                        ImdsDocument.AUTOSCALING_TARGET_LIFECYCLE_STATE,
                        Outcome.nothing()),
                imds(
                        "cloud/aws/imds_autoscaling_target_lifecycle_state_docs.txt",
                        ImdsDocument.AUTOSCALING_TARGET_LIFECYCLE_STATE,
                        Outcome.read(
                                Expected.notice("node-imds", NoticeKind.MAINTENANCE, null, null, RECEIVED.toString())),
                        "InService",
                        "Terminated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyVariantIsReadOrRefusedWithItsReason(Variant v) {
        Translation t = v.translate().apply(Fixtures.bytes(v.fixture()));

        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactlyElementsOf(v.outcome().reasons());
        assertThat(t.rejections()).allSatisfy(r -> assertThat(r.detail()).isNotBlank());
        assertThat(t.events()).hasSameSizeAs(v.outcome().events());
        for (int i = 0; i < t.events().size(); i++) {
            Event e = t.events().get(i);
            Expected x = v.outcome().events().get(i);
            assertThat(e.subject()).isEqualTo(x.node());
            assertThat(e.time()).isEqualTo(Instant.parse(x.time()));
            assertThat(e.source()).isEqualTo("cloud/aws");
            if (x.kind() == null) {
                assertThat(e.type()).isEqualTo(EventType.NODE_TERMINATED);
            } else {
                assertThat(e.data())
                        .isEqualTo(new NodeData.InterruptionNotice(
                                x.kind(),
                                "aws",
                                x.deadline() == null ? null : Instant.parse(x.deadline()),
                                x.windowEnd() == null ? null : Instant.parse(x.windowEnd())));
            }
        }
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void everySampleOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("cloud/aws", named)).isEmpty();
    }

    @Test
    void theSameTerminatedTargetStateReadAgainIsTheSameEvent() {
        byte[] terminated = "Terminated".getBytes(StandardCharsets.UTF_8);
        Event first = AWS.fromImds(
                        "i-0imds00000000001", ImdsDocument.AUTOSCALING_TARGET_LIFECYCLE_STATE, terminated, RECEIVED)
                .events()
                .get(0);
        Event later = AWS.fromImds(
                        "i-0imds00000000001",
                        ImdsDocument.AUTOSCALING_TARGET_LIFECYCLE_STATE,
                        terminated,
                        RECEIVED.plusSeconds(600))
                .events()
                .get(0);
        assertThat(later.id()).isEqualTo(first.id());
    }
}
