package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
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
 * Every Azure Scheduled Events document of {@code fixtures/cloud/azure} (Microsoft's documentation, its sample service's
 * log, an eviction simulated with {@code az vm simulate-eviction}, an AKS termination handler's test data) and every GCP
 * metadata value of {@code fixtures/cloud/gcp} is read into the notices it announces, with deadline and window end, or
 * into nothing when it announces nothing, or refused with a reason (origins in SOURCES.md).
 */
class AzureAndGcpVariantsTest {

    private static final Instant RECEIVED = Instant.parse("2026-11-30T10:00:00Z");
    private static final InMemoryNodeResolver NODES = new InMemoryNodeResolver()
            .registerInstance("vm-spot", "node-spot")
            .registerInstance("flatcar-vm1", "node-flatcar")
            .registerInstance("WestNO_0", "node-west-0")
            .registerInstance("WestNO_1", "node-west-1")
            .register(
                    "aks-spotcpu2d2as-24469130-vmss000001",
                    "azure:///subscriptions/0000/resourceGroups/mc_rg/providers/"
                            + "Microsoft.Compute/virtualMachineScaleSets/aks-spotcpu2d2as-24469130-vmss/virtualMachines/1")
            .registerInstance("gce-a3-1", "node-gce");
    private static final AzureScheduledEventsTranslator AZURE = new AzureScheduledEventsTranslator(NODES);
    private static final GcpMetadataTranslator GCP = new GcpMetadataTranslator(NODES);

    record Expected(String node, NoticeKind kind, String provider, String deadline, String windowEnd) {}

    record Variant(
            String fixture,
            String how,
            Function<byte[], Translation> translate,
            List<Expected> events,
            List<String> reasons) {
        @Override
        public String toString() {
            return fixture + " (" + how + ")";
        }
    }

    private static Variant azure(
            String file, String how, List<Expected> events, List<String> reasons, String... replace) {
        return new Variant(file, how, b -> AZURE.translate(fill(b, replace), RECEIVED), events, reasons);
    }

    private static Variant preempted(String file, List<Expected> events, List<String> reasons) {
        return new Variant(
                file,
                "instance/preempted",
                b -> GCP.preempted("gce-a3-1", GcpMetadataTranslator.metadataValue(b), RECEIVED),
                events,
                reasons);
    }

    private static Variant maintenance(String file, List<Expected> events, List<String> reasons) {
        return new Variant(
                file,
                "instance/maintenance-event",
                b -> GCP.maintenanceEvent("gce-a3-1", GcpMetadataTranslator.metadataValue(b), RECEIVED),
                events,
                reasons);
    }

    private static byte[] fill(byte[] body, String... replacements) {
        String s = new String(body, StandardCharsets.UTF_8);
        for (int i = 0; i < replacements.length; i += 2) {
            s = s.replace(replacements[i], replacements[i + 1]);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Variant> variants() {
        String reboot = "2021-07-22T04:50:17Z";
        return Stream.of(
                azure(
                        "cloud/azure/scheduled_events_preempt_simulate_eviction.json",
                        "a Spot eviction",
                        List.of(new Expected(
                                "node-spot", NoticeKind.SPOT_RECLAIM, "azure", "2022-08-09T17:07:32Z", null)),
                        List.of()),
                azure(
                        "cloud/azure/scheduled_events_empty_vm_scheduled_events_sample.json",
                        "no events",
                        List.of(),
                        List.of()),
                azure("cloud/azure/scheduled_events_empty_incarnation_1_docs.json", "no events", List.of(), List.of()),
                azure(
                        "cloud/azure/scheduled_events_user_reboot_vm_scheduled_events_sample.json",
                        "a user's reboot, duration -1",
                        List.of(new Expected("node-flatcar", NoticeKind.MAINTENANCE, "azure", reboot, null)),
                        List.of()),
                azure(
                        "cloud/azure/scheduled_events_freeze_two_vms_scheduled_docs.json",
                        "a freeze of 5 s",
                        List.of(),
                        List.of()),
                azure(
                        "cloud/azure/scheduled_events_freeze_two_vms_scheduled_docs.json",
                        "the same as a reboot of 5 s",
                        List.of(
                                new Expected(
                                        "node-west-0",
                                        NoticeKind.MAINTENANCE,
                                        "azure",
                                        "2022-04-11T22:26:58Z",
                                        "2022-04-11T22:27:03Z"),
                                new Expected(
                                        "node-west-1",
                                        NoticeKind.MAINTENANCE,
                                        "azure",
                                        "2022-04-11T22:26:58Z",
                                        "2022-04-11T22:27:03Z")),
                        List.of(),
                        "\"Freeze\"",
                        "\"Reboot\""),
                azure(
                        "cloud/azure/scheduled_events_freeze_started_blank_notbefore_docs.json",
                        "a started freeze",
                        List.of(),
                        List.of()),
                azure(
                        "cloud/azure/scheduled_events_freeze_started_blank_notbefore_docs.json",
                        "a started reboot: no deadline",
                        List.of(
                                new Expected("node-west-0", NoticeKind.MAINTENANCE, "azure", null, null),
                                new Expected("node-west-1", NoticeKind.MAINTENANCE, "azure", null, null)),
                        List.of(),
                        "\"Freeze\"",
                        "\"Reboot\""),
                azure(
                        "cloud/azure/scheduled_events_reboot_cloud_service_and_vmss_names_aks_nth.json",
                        "a cloud-service role instance and a scale-set instance",
                        List.of(new Expected(
                                "aks-spotcpu2d2as-24469130-vmss000001",
                                NoticeKind.MAINTENANCE,
                                "azure",
                                "2016-09-19T18:29:47Z",
                                null)),
                        List.of(CloudNotices.UNKNOWN_INSTANCE)),
                preempted(
                        "cloud/gcp/preempted_true.txt",
                        List.of(new Expected("node-gce", NoticeKind.PREEMPT, "gcp", "2026-11-30T10:00:30Z", null)),
                        List.of()),
                preempted(
                        "cloud/gcp/preempted_true_alt_json.json",
                        List.of(new Expected("node-gce", NoticeKind.PREEMPT, "gcp", "2026-11-30T10:00:30Z", null)),
                        List.of()),
                preempted("cloud/gcp/preempted_false.txt", List.of(), List.of()),
                maintenance(
                        "cloud/gcp/maintenance_event_terminate_on_host_maintenance.txt",
                        List.of(new Expected("node-gce", NoticeKind.MAINTENANCE, "gcp", "2026-11-30T10:01:00Z", null)),
                        List.of()),
                maintenance("cloud/gcp/maintenance_event_migrate_on_host_maintenance.txt", List.of(), List.of()),
                maintenance("cloud/gcp/maintenance_event_none.txt", List.of(), List.of()),
                // A value posted to the other key is refused, not guessed at.
                preempted(
                        "cloud/gcp/maintenance_event_terminate_on_host_maintenance.txt",
                        List.of(),
                        List.of(GcpMetadataTranslator.UNSUPPORTED_VALUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyVariantIsReadOrRefusedWithItsReason(Variant v) {
        Translation t = v.translate().apply(Fixtures.bytes(v.fixture()));

        assertThat(t.rejections()).extracting(Translation.Rejection::reason).containsExactlyElementsOf(v.reasons());
        assertThat(t.events())
                .extracting(Event::subject)
                .containsExactlyElementsOf(
                        v.events().stream().map(Expected::node).toList());
        for (int i = 0; i < t.events().size(); i++) {
            Expected x = v.events().get(i);
            assertThat(t.events().get(i).data())
                    .isEqualTo(new NodeData.InterruptionNotice(
                            x.kind(),
                            x.provider(),
                            x.deadline() == null ? null : Instant.parse(x.deadline()),
                            x.windowEnd() == null ? null : Instant.parse(x.windowEnd())));
            assertThat(t.events().get(i).time()).isEqualTo(RECEIVED);
        }
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void everySampleOfTheFoldersHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("cloud/azure", named)).isEmpty();
        assertThat(FixtureFolder.unnamed("cloud/gcp", named)).isEmpty();
    }
}
