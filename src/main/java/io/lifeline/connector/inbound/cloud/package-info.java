/**
 * Cloud interruption notices into {@code node.interruption_notice} (and {@code node.terminated}) events:
 * {@link io.lifeline.connector.inbound.cloud.AwsNoticeTranslator} (EventBridge and IMDS),
 * {@link io.lifeline.connector.inbound.cloud.AzureScheduledEventsTranslator} and
 * {@link io.lifeline.connector.inbound.cloud.GcpMetadataTranslator}. Machines are mapped to nodes by a
 * {@link io.lifeline.connector.inbound.cloud.NodeResolver}, for example an
 * {@link io.lifeline.connector.inbound.cloud.InMemoryNodeResolver} fed with each Node's {@code spec.providerID}
 * ({@link io.lifeline.connector.inbound.cloud.ProviderId}).
 */
package io.lifeline.connector.inbound.cloud;
