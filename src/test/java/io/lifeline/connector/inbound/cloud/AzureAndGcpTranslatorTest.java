package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Azure Scheduled Events ({@code fixtures/cloud/azure/}) and GCP metadata values. */
class AzureAndGcpTranslatorTest {

    private static final Instant RECEIVED = Instant.parse("2022-08-09T17:06:40Z");
    private static final String PREEMPT = "cloud/azure/scheduled_events_preempt_simulate_eviction.json";

    private final InMemoryNodeResolver nodes = new InMemoryNodeResolver()
            .register(
                    "aks-spot-00000001",
                    "azure:///subscriptions/0000/resourceGroups/rg/providers/Microsoft.Compute/"
                            + "virtualMachines/vm-spot")
            .register("gke-pool-a-1", "gce://my-project/us-central1-a/gke-pool-a-1");

    @Test
    void azurePreemptIsASpotReclaimWithNotBeforeAsDeadline() {
        AzureScheduledEventsTranslator azure = new AzureScheduledEventsTranslator(nodes);

        Translation t = azure.translate(Fixtures.bytes(PREEMPT), RECEIVED);

        assertThat(t.rejections()).isEmpty();
        Event e = t.events().get(0);
        assertThat(t.events()).hasSize(1);
        assertThat(e.subject()).isEqualTo("aks-spot-00000001");
        assertThat(e.time()).isEqualTo(RECEIVED);
        assertThat(e.source()).isEqualTo("cloud/azure");
        assertThat(e.id()).isEqualTo("azure/vm-spot/spot_reclaim/C1BF8322-4CBF-4FC4-9C45-B40CF3106D0E");
        assertThat(e.data())
                .isEqualTo(new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "azure", Instant.parse("2022-08-09T17:07:32Z")));
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void azureRereadDocumentAndStartedStatusKeepTheSameId() {
        AzureScheduledEventsTranslator azure = new AzureScheduledEventsTranslator(nodes);
        String started = Fixtures.text(PREEMPT)
                .replace("\"DocumentIncarnation\": 1", "\"DocumentIncarnation\": 2")
                .replace("\"Scheduled\"", "\"Started\"")
                .replace("\"Tue, 09 Aug 2022 17:07:32 GMT\"", "\"\"");

        Event first =
                azure.translate(Fixtures.bytes(PREEMPT), RECEIVED).events().get(0);
        Event later = azure.translate(started.getBytes(StandardCharsets.UTF_8), RECEIVED.plusSeconds(50))
                .events()
                .get(0);

        assertThat(later.id()).isEqualTo(first.id());
        assertThat(((NodeData.InterruptionNotice) later.data()).deadline()).isNull();
    }

    @Test
    void azureMaintenanceTypesFreezeAndUnknownTypes() {
        AzureScheduledEventsTranslator azure = new AzureScheduledEventsTranslator(nodes);
        String preempt = Fixtures.text(PREEMPT);

        for (String type : new String[] {"Terminate", "Reboot", "Redeploy"}) {
            Translation t = azure.translate(
                    preempt.replace("\"Preempt\"", "\"" + type + "\"").getBytes(StandardCharsets.UTF_8), RECEIVED);
            assertThat(t.events())
                    .as(type)
                    .singleElement()
                    .satisfies(e -> assertThat(((NodeData.InterruptionNotice) e.data()).kind())
                            .isEqualTo(NoticeKind.MAINTENANCE));
        }
        Translation freeze = azure.translate(
                preempt.replace("\"Preempt\"", "\"Freeze\"").getBytes(StandardCharsets.UTF_8), RECEIVED);
        assertThat(freeze.events()).isEmpty();
        assertThat(freeze.rejections()).isEmpty();
        Translation odd = azure.translate(
                preempt.replace("\"Preempt\"", "\"Hibernate\"").getBytes(StandardCharsets.UTF_8), RECEIVED);
        assertThat(odd.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("unsupported_event_type");
    }

    @Test
    void azureUnknownVmIsARejection() {
        AzureScheduledEventsTranslator azure = new AzureScheduledEventsTranslator(new InMemoryNodeResolver());

        Translation t = azure.translate(Fixtures.bytes(PREEMPT), RECEIVED);

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections()).extracting(Translation.Rejection::reason).containsExactly("unknown_instance");
        assertThat(azure.stats().translated()).isZero();
    }

    @Test
    void gcpPreemptedTrueIsAPreemptWithThirtySecondsNotice() {
        GcpMetadataTranslator gcp = new GcpMetadataTranslator(nodes);
        Instant seen = Instant.parse("2026-02-01T08:00:05Z");

        Translation t = gcp.preempted("gke-pool-a-1", "TRUE", seen);

        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo("gke-pool-a-1");
            assertThat(e.data())
                    .isEqualTo(new NodeData.InterruptionNotice(NoticeKind.PREEMPT, "gcp", seen.plusSeconds(30)));
            assertThat(e.id()).isEqualTo("gcp/gke-pool-a-1/preempt/2026-02-01T08:00:00Z");
        });
        assertThat(gcp.preempted("gke-pool-a-1", "FALSE", seen).events()).isEmpty();
        assertThat(gcp.preempted("gke-pool-a-1", "maybe", seen).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("unsupported_value");
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void gcpTerminateOnHostMaintenanceIsMaintenanceAndLiveMigrationIsNot() {
        GcpMetadataTranslator gcp = new GcpMetadataTranslator(nodes);
        Instant seen = Instant.parse("2026-02-01T08:00:05Z");

        assertThat(gcp.maintenanceEvent("gke-pool-a-1", "TERMINATE_ON_HOST_MAINTENANCE", seen)
                        .events())
                .singleElement()
                .satisfies(e -> assertThat(e.data())
                        .isEqualTo(
                                new NodeData.InterruptionNotice(NoticeKind.MAINTENANCE, "gcp", seen.plusSeconds(60))));
        assertThat(gcp.maintenanceEvent("gke-pool-a-1", "MIGRATE_ON_HOST_MAINTENANCE", seen)
                        .events())
                .isEmpty();
        assertThat(gcp.maintenanceEvent("unknown-vm", "TERMINATE_ON_HOST_MAINTENANCE", seen)
                        .rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly("unknown_instance");
    }
}
