package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Kubernetes informers ({@code lifeline.connectors.kubernetes.*}); off by default. Documented in docs/connectors.md. */
@ConfigMapping(prefix = "lifeline.connectors.kubernetes")
public interface KubeConfig {

    /** Whether Lifeline watches the cluster (the client comes from {@code quarkus.kubernetes-client.*}). */
    @WithDefault("false")
    boolean enabled();

    /** Name of the cluster, part of every event source ({@code kubernetes/<cluster>}). */
    @WithDefault("default")
    String cluster();

    /** Informer resync period; resyncs yield no new events (ids are derived from the objects). */
    @WithDefault("10m")
    Duration resync();

    /** How often kinds whose CRD was missing are looked for again. */
    @WithDefault("5m")
    Duration crdRecheck();

    /** Watch Nodes. */
    Kind nodes();

    /** Watch training Pods (those with {@code training.kubeflow.org/job-name}). */
    Kind pods();

    /** Watch core Events of training Pods. */
    Kind events();

    /** Watch Kubeflow PyTorchJobs, when their CRD exists. */
    Kind pytorchjobs();

    /** Watch Kubeflow Trainer v2 TrainJobs, when their CRD exists. */
    Kind trainjobs();

    /**
     * Watch JobSets, when their CRD exists: the restart counters of those that run a watched training job (a TrainJob's
     * own JobSet).
     */
    Kind jobsets();

    /** Watch Kueue Workloads, when their CRD exists. */
    Kind kueue();

    /** Watch Volcano Jobs, when their CRD exists. */
    Kind volcano();

    /** Node labels naming the node pool, first present wins. */
    @WithDefault(
            "karpenter.sh/nodepool,eks.amazonaws.com/nodegroup,cloud.google.com/gke-nodepool,"
                    + "kubernetes.azure.com/agentpool,agentpool,alpha.eksctl.io/nodegroup-name,node.kubernetes.io/pool,nodepool")
    List<String> poolLabels();

    /** Pool of a node that has none of the pool labels. */
    @WithDefault("default")
    String defaultPool();

    /** {@code lifeline.connectors.kubernetes.<kind>.*}. */
    interface Kind {
        /** Whether the kind is watched (while the connector is on). */
        @WithDefault("true")
        boolean enabled();
    }
}
