/**
 * Admission webhooks the API server calls: the checkpoint-gated eviction webhook on {@code pods/eviction}
 * ({@link io.lifeline.connector.inbound.kube.admission.EvictionWebhook}), which holds the eviction of a training
 * pod back with "429, retry later" until its job has a fresh checkpoint.
 */
package io.lifeline.connector.inbound.kube.admission;
