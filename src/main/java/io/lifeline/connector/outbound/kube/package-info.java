/**
 * Lifeline's actions on a Kubernetes cluster (fabric8), one small wrapper per kind: {@link
 * io.lifeline.connector.outbound.kube.NodeOperator} (cordon), {@link io.lifeline.connector.outbound.kube.PodOperator}
 * (training pods on a node, eviction, deletion), {@link io.lifeline.connector.outbound.kube.PyTorchJobOperator}
 * (worker replicas, suspension, restore annotation) and {@link io.lifeline.connector.outbound.kube.WorkloadOperator}
 * (cost annotations on Kueue Workloads). Every call is idempotent and answers a typed outcome.
 */
package io.lifeline.connector.outbound.kube;
