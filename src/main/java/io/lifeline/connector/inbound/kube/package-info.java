/**
 * Kubernetes as a source: {@link io.lifeline.connector.inbound.kube.KubernetesConnector} starts fabric8 informers, one
 * small wrapper per kind (Nodes, training Pods, their Events, PyTorchJobs, Kueue Workloads, Volcano Jobs, and the
 * dcgm-exporter EndpointSlices that feed the scraper), detecting custom kinds by their CRD. Each wrapper turns
 * object changes into catalogue events with ids derived from the object's uid and its resourceVersion or the
 * transition time it reports, so resyncs and restarts are harmless; events leave through the connector sink.
 * {@link io.lifeline.api.connector.KubernetesResource} reports the state of every kind.
 */
package io.lifeline.connector.inbound.kube;
