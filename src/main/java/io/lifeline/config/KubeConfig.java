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

    /** Watch pods that a node's kubelet rejected at admission or device allocation (any pod, Failed ones only). */
    AdmissionFailures admissionFailures();

    /** Watch DRA ResourceSlices for device taints (and to map DRA device ids to GPUs). */
    Dra resourceSlices();

    /** Watch DRA DeviceTaintRules. */
    DeviceTaintRules deviceTaintRules();

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

    /** {@code lifeline.connectors.kubernetes.admission-failures.*}. */
    interface AdmissionFailures {
        /** Whether rejected pods are watched. */
        @WithDefault("true")
        boolean enabled();

        /**
         * The {@code status.reason} values of a Failed pod that mean its node rejected it (a message containing
         * "Allocate failed" counts whatever the reason).
         */
        @WithDefault("UnexpectedAdmissionError,DeviceNotReady")
        List<String> reasons();
    }

    /** {@code lifeline.connectors.kubernetes.resource-slices.*}. */
    interface Dra {
        /** Whether the kind is watched. */
        @WithDefault("true")
        boolean enabled();

        /** The {@code resource.k8s.io} version read ({@code v1} from Kubernetes 1.34, {@code v1beta2}, {@code v1beta1}). */
        @WithDefault("v1")
        String version();
    }

    /** {@code lifeline.connectors.kubernetes.device-taint-rules.*}. */
    interface DeviceTaintRules {
        /** Whether the kind is watched: off by default, as the API is behind the DRADeviceTaints feature gate. */
        @WithDefault("false")
        boolean enabled();

        /** The {@code resource.k8s.io} version read ({@code v1alpha3} from 1.33, {@code v1beta2} from 1.36). */
        @WithDefault("v1beta2")
        String version();
    }
}
