package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.Hostile;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The cloud notice translators over hostile variants of the real AWS (EventBridge and IMDS) and Azure (Scheduled
 * Events) documents in the fixtures, and of the GCE metadata values: a document yields a translation (events for
 * known instances, rejections with the documented reasons), never an exception.
 */
class CloudNoticesFuzzTest {

    private static final Instant RECEIVED = Instant.parse("2026-03-01T10:00:00Z");
    private static final Set<String> REASONS = Set.of(
            CloudNotices.MALFORMED_JSON,
            CloudNotices.MISSING_FIELD,
            CloudNotices.INVALID_TIME,
            CloudNotices.UNKNOWN_INSTANCE,
            AwsNoticeTranslator.UNSUPPORTED_DETAIL_TYPE,
            AwsNoticeTranslator.UNSUPPORTED_HEALTH_EVENT,
            AwsNoticeTranslator.UNKNOWN_IMDS_DOCUMENT,
            AzureScheduledEventsTranslator.UNSUPPORTED_EVENT_TYPE,
            GcpMetadataTranslator.UNSUPPORTED_VALUE);

    /** Every instance the fixtures name, known as a node. */
    private final InMemoryNodeResolver nodes = new InMemoryNodeResolver()
            .registerInstance("i-0b662ef9931388ba0", "ip-10-0-3-17.ec2.internal")
            .registerInstance("i-0123456789abcdef0", "ip-10-0-3-18.ec2.internal")
            .registerInstance("i-1234567890abcdef0", "ip-10-0-3-19.ec2.internal")
            .registerInstance("gpu-instance-1", "gke-gpu-1")
            .registerInstance("vm-spot", "aks-vm-spot")
            .register(
                    "aks-spot-1",
                    "azure:///subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/"
                            + "virtualMachineScaleSets/aks-spot-1/virtualMachines/0");

    private final AwsNoticeTranslator aws = new AwsNoticeTranslator(nodes);
    private final AzureScheduledEventsTranslator azure = new AzureScheduledEventsTranslator(nodes);
    private final GcpMetadataTranslator gcp = new GcpMetadataTranslator(nodes);

    @Property
    void anEventBridgeEventTranslatesOrIsRejectedWithAReason(@ForAll("eventBridge") Hostile.Case json) {
        checked(aws.fromEventBridge(json.bytes()));
    }

    @Property
    void anImdsDocumentTranslatesOrIsRejectedWithAReason(
            @ForAll("imds") Imds imds, @ForAll("instances") String instance) {
        checked(aws.fromImds(instance, imds.document(), imds.json().bytes(), RECEIVED));
    }

    /** A mutated sample of one IMDS document, read as that document (a sample read as another says nothing). */
    record Imds(ImdsDocument document, Hostile.Case json) {}

    @Property
    void anAzureDocumentTranslatesOrIsRejectedWithAReason(@ForAll("azureDocuments") Hostile.Case json) {
        checked(azure.translate(json.bytes(), RECEIVED));
    }

    @Property
    void aGceMetadataValueTranslatesOrIsRejectedWithAReason(
            @ForAll("gceValues") String value, @ForAll("instances") String instance) {
        checked(gcp.preempted(instance, value, RECEIVED));
        checked(gcp.maintenanceEvent(instance, value, RECEIVED));
    }

    private static void checked(Translation t) {
        assertThat(t.rejections()).allSatisfy(r -> assertThat(r.reason()).isIn(REASONS));
        for (Event e : t.events()) {
            assertThat(e.type()).isIn(EventType.NODE_INTERRUPTION_NOTICE, EventType.NODE_TERMINATED);
            assertThat(e.subject()).isNotBlank();
            assertThat(e.source()).startsWith("cloud/");
        }
        Statistics.collect(t.events().isEmpty() ? "no event" : "events");
        Statistics.coverage(c -> c.check("events").percentage(p -> p > 1));
    }

    @Provide
    Arbitrary<Hostile.Case> eventBridge() {
        return Hostile.any(seeds(
                "cloud/aws/nth_example_spot-itn-event.json",
                "cloud/aws/nth_example_rebalance-recommendation-event.json"));
    }

    @Provide
    Arbitrary<Imds> imds() {
        return Arbitraries.of(ImdsDocument.values())
                .flatMap(d -> Hostile.any(seeds(
                                switch (d) {
                                    case SPOT_INSTANCE_ACTION -> "cloud/aws/imds_spot_instance_action.json";
                                    case REBALANCE_RECOMMENDATION ->
                                        "cloud/aws/imds_events_recommendations_rebalance.json";
                                    case MAINTENANCE_SCHEDULED -> "cloud/aws/imds_events_maintenance_scheduled.json";
                                    case SPOT_TERMINATION_TIME ->
                                        "cloud/aws/imds_spot_termination_time_legacy_docs.txt";
                                    case AUTOSCALING_TARGET_LIFECYCLE_STATE ->
                                        "cloud/aws/imds_autoscaling_target_lifecycle_state_docs.txt";
                                }))
                        .map(json -> new Imds(d, json)));
    }

    @Provide
    Arbitrary<Hostile.Case> azureDocuments() {
        return Hostile.any(seeds("cloud/azure/scheduled_events_preempt_simulate_eviction.json"));
    }

    @Provide
    Arbitrary<String> gceValues() {
        return Hostile.strings(
                List.of("TRUE", "FALSE", "TERMINATE_ON_HOST_MAINTENANCE", "MIGRATE_ON_HOST_MAINTENANCE", "NONE"));
    }

    @Provide
    Arbitrary<String> instances() {
        return Arbitraries.oneOf(
                Arbitraries.of("i-0b662ef9931388ba0", "gpu-instance-1", "aks-spot-1_0"),
                Hostile.strings(List.of("i-0b662ef9931388ba0", "gpu-instance-1")));
    }

    private static List<Hostile.Seed> seeds(String... fixtures) {
        return java.util.Arrays.stream(fixtures)
                .map(f -> new Hostile.Seed(f, Fixtures.bytes(f)))
                .toList();
    }
}
