package io.lifeline.connector.inbound.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Records without a format header are recognised by their shape. */
class NoticeRecordsTest {

    @Test
    void eachFixtureIsRecognisedOrLeftToAHeader() {
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/nth_example_spot-itn-event.json")))
                .isEqualTo("aws.eventbridge");
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/nth_example_rebalance-recommendation-event.json")))
                .isEqualTo("aws.eventbridge");
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/azure/scheduled_events_preempt_simulate_eviction.json")))
                .isEqualTo("azure.scheduled-events");
        assertThat(NoticeRecords.sniff(
                        Fixtures.bytes("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl")))
                .isEqualTo("torchelastic");
        // Auto Scaling's lifecycle notifications sent straight to SQS (no EventBridge envelope), and its test
        // notification.
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/sqs_asg_lifecycle_terminating_notification_nth.json")))
                .isEqualTo("aws.eventbridge");
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/sqs_asg_test_notification_nth.json")))
                .isEqualTo("aws.eventbridge");
        // IMDS documents carry nothing that names them: they need lifeline.format and the instance headers.
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json")))
                .isNull();
        assertThat(NoticeRecords.sniff(Fixtures.bytes("cloud/aws/imds_events_recommendations_rebalance.json")))
                .isNull();
        assertThat(NoticeRecords.sniff("TRUE".getBytes(StandardCharsets.UTF_8))).isNull();
    }
}
