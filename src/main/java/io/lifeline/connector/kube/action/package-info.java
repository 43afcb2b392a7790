/**
 * Lifeline's actions on a Kubernetes cluster (fabric8), one small wrapper per kind: {@link
 * io.lifeline.connector.kube.action.NodeOperator} (cordon), {@link io.lifeline.connector.kube.action.PodOperator}
 * (training pods on a node, eviction, deletion), {@link io.lifeline.connector.kube.action.PyTorchJobOperator}
 * (worker replicas, suspension, restore annotation) and {@link io.lifeline.connector.kube.action.WorkloadOperator}
 * (cost annotations on Kueue Workloads). Every call is idempotent and answers a typed outcome.
 */
package io.lifeline.connector.kube.action;
