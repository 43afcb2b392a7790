package io.lifeline.connector.inbound.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Kubernetes {@code spec.providerID} formats and the in-memory resolver built on them. */
class ProviderIdTest {

    @Test
    void awsProviderIdHasZoneAndInstance() {
        assertThat(ProviderId.parse("aws:///us-east-1a/i-0abc123"))
                .isEqualTo(new ProviderId("aws", "us-east-1a", "i-0abc123", "aws:///us-east-1a/i-0abc123"));
        assertThat(ProviderId.parse("aws:///i-0abc123").zone()).isNull();
    }

    @Test
    void azureProviderIdsNameTheVmOrTheScaleSetInstance() {
        assertThat(ProviderId.parse("azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
                                + "virtualMachines/vm-spot")
                        .instanceId())
                .isEqualTo("vm-spot");
        assertThat(ProviderId.parse("azure:///subscriptions/s/resourceGroups/mc_rg/providers/Microsoft.Compute/"
                                + "virtualMachineScaleSets/aks-gpu-12345678-vmss/virtualMachines/3")
                        .instanceId())
                .isEqualTo("aks-gpu-12345678-vmss_3");
    }

    @Test
    void gceProviderIdHasProjectZoneAndName() {
        ProviderId id = ProviderId.parse("gce://my-project/us-central1-a/gke-pool-a-1");
        assertThat(id.provider()).isEqualTo("gcp");
        assertThat(id.zone()).isEqualTo("us-central1-a");
        assertThat(id.instanceId()).isEqualTo("gke-pool-a-1");
    }

    @Test
    void malformedProviderIdsAreRefusedWithAReason() {
        assertThatThrownBy(() -> ProviderId.parse("i-0abc")).hasMessageContaining("no scheme");
        assertThatThrownBy(() -> ProviderId.parse("kind://kind-worker")).hasMessageContaining("unsupported provider");
        assertThatThrownBy(() -> ProviderId.parse("gce://only/two")).hasMessageContaining("gce://PROJECT/ZONE/NAME");
    }

    @Test
    void resolverFindsNodesByInstanceProviderIdOrArnIgnoringCase() {
        InMemoryNodeResolver r = new InMemoryNodeResolver()
                .register("node-a", "aws:///us-east-1b/i-0b662ef9931388ba0")
                .register(
                        "node-b",
                        "azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
                                + "virtualMachineScaleSets/gpu-vmss/virtualMachines/0");

        assertThat(r.nodeFor("i-0b662ef9931388ba0")).isEqualTo("node-a");
        assertThat(r.nodeFor("arn:aws:ec2:us-east-1b:instance/i-0b662ef9931388ba0"))
                .isEqualTo("node-a");
        assertThat(r.nodeFor("aws:///us-east-1b/i-0b662ef9931388ba0")).isEqualTo("node-a");
        assertThat(r.nodeFor("GPU-VMSS_0")).isEqualTo("node-b");
        assertThat(r.nodeFor("_gpu-vmss_0")).isEqualTo("node-b");
        assertThat(r.nodeFor("i-unknown")).isNull();

        r.forget("node-a");
        assertThat(r.nodeFor("i-0b662ef9931388ba0")).isNull();
    }
}
