package io.lifeline.domain.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The shipped policy, asserted against what the real upstream tables say. */
class XidPolicyTest {

    private static final XidPolicy POLICY = XidPolicy.loadDefault();

    @Test
    void xid79GpuHasFallenOffTheBusNeedsAReboot() {
        XidRule r = POLICY.rule(79);
        assertThat(r.mnemonic()).isEqualTo("ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS");
        assertThat(r.description()).isEqualTo("GPU has fallen off the bus");
        assertThat(r.recommendation()).isEqualTo("RESTART_BM");
        assertThat(r.fatal()).isTrue();
        assertThat(r.investigation()).isEqualTo("CONTACT_SUPPORT");
        assertThat(r.action()).isEqualTo(XidAction.REBOOT);
        assertThat(r.health()).isEqualTo(GpuHealth.FAILED);
        assertThat(r.known()).isTrue();
        assertThat(r.label()).isEqualTo("XID 79 (GPU has fallen off the bus)");
    }

    @Test
    void xid48DoubleBitEccErrorFailsTheGpuUntilReset() {
        XidRule r = POLICY.rule(48);
        assertThat(r.mnemonic()).isEqualTo("ROBUST_CHANNEL_GPU_ECC_DBE");
        assertThat(r.description()).isEqualTo("Double Bit ECC Error");
        assertThat(r.recommendation()).isEqualTo("WORKFLOW_XID_48");
        assertThat(r.fatal()).isTrue();
        assertThat(r.action()).isEqualTo(XidAction.RESET_GPU);
        assertThat(r.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void xid13And31AreApplicationErrorsThatLeaveTheGpuHealthy() {
        XidRule r13 = POLICY.rule(13);
        // The catalog's mnemonic holds an embedded newline; it is read as one field and collapsed.
        assertThat(r13.mnemonic()).isEqualTo("ROBUST_CHANNEL_GR_EXCEPTION / ROBUST_CHANNEL_GR_ERROR_SW_NOTIFY");
        assertThat(r13.description()).isEqualTo("Graphics Engine Exception");
        assertThat(r13.recommendation()).isEqualTo("RESTART_APP");
        assertThat(r13.fatal()).isFalse();
        assertThat(r13.investigation()).isEqualTo("WORKFLOW_XID_13");
        assertThat(r13.action()).isEqualTo(XidAction.RESTART_APP);
        assertThat(r13.health()).isEqualTo(GpuHealth.HEALTHY);

        XidRule r31 = POLICY.rule(31);
        assertThat(r31.mnemonic()).isEqualTo("ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT");
        assertThat(r31.description()).isEqualTo("GPU memory page fault");
        assertThat(r31.investigation()).isEqualTo("WORKFLOW_XID_31");
        assertThat(r31.action()).isEqualTo(XidAction.RESTART_APP);
        assertThat(r31.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void xid43GpuStoppedProcessingIsIgnoredByNvSentinel() {
        XidRule r = POLICY.rule(43);
        assertThat(r.mnemonic()).isEqualTo("ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR");
        assertThat(r.description()).isEqualTo("GPU stopped processing");
        assertThat(r.recommendation()).isEqualTo("IGNORE");
        assertThat(r.fatal()).isFalse();
        assertThat(r.action()).isEqualTo(XidAction.NONE);
        assertThat(r.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void xid63RemappingEventIsBenignButXid64RemappingFailureNeedsAReset() {
        XidRule r63 = POLICY.rule(63);
        assertThat(r63.mnemonic()).isEqualTo("INFOROM_DRAM_RETIREMENT_EVENT");
        assertThat(r63.description()).isEqualTo("GPU memory remapping event");
        assertThat(r63.action()).isEqualTo(XidAction.NONE);
        assertThat(r63.health()).isEqualTo(GpuHealth.HEALTHY);

        XidRule r64 = POLICY.rule(64);
        assertThat(r64.mnemonic()).isEqualTo("INFOROM_DRAM_RETIREMENT_FAILURE");
        assertThat(r64.description()).isEqualTo("GPU memory remapping failure");
        assertThat(r64.recommendation()).isEqualTo("RESET_GPU");
        assertThat(r64.fatal()).isTrue();
        assertThat(r64.action()).isEqualTo(XidAction.RESET_GPU);
        assertThat(r64.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void xid94ContainedErrorDegradesAndXid95UncontainedErrorFails() {
        XidRule r94 = POLICY.rule(94);
        assertThat(r94.description()).isEqualTo("Contained memory error");
        assertThat(r94.recommendation()).isEqualTo("RESTART_APP");
        assertThat(r94.fatal()).isFalse();
        assertThat(r94.investigation()).isEqualTo("IGNORE (sympathetic)");
        assertThat(r94.action()).isEqualTo(XidAction.RESTART_APP);
        assertThat(r94.health())
                .as("Lifeline's override: the row is only remapped at the next reset")
                .isEqualTo(GpuHealth.DEGRADED);

        XidRule r95 = POLICY.rule(95);
        assertThat(r95.mnemonic()).isEqualTo("ROBUST_CHANNEL_UNCONTAINED_ERROR");
        assertThat(r95.description()).isEqualTo("Uncontained memory error");
        assertThat(r95.action()).isEqualTo(XidAction.RESET_GPU);
        assertThat(r95.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void xid109ContextSwitchTimeoutAndXid119GspRpcTimeoutNeedAReset() {
        XidRule r109 = POLICY.rule(109);
        assertThat(r109.mnemonic()).isEqualTo("ROBUST_CHANNEL_CTXSW_TIMEOUT_ERROR");
        assertThat(r109.description()).isEqualTo("Context Switch Timeout Error");
        assertThat(r109.action()).isEqualTo(XidAction.RESET_GPU);
        assertThat(r109.health()).isEqualTo(GpuHealth.FAILED);

        XidRule r119 = POLICY.rule(119);
        assertThat(r119.mnemonic()).isEqualTo("GSP_RPC_TIMEOUT");
        assertThat(r119.description()).isEqualTo("GSP RPC Timeout");
        assertThat(r119.investigation()).isEqualTo("INVESTIGATE_SW");
        assertThat(r119.action()).isEqualTo(XidAction.RESET_GPU);
        assertThat(r119.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void quotedDescriptionsKeepTheirCommasAndLineBreaksBecomeSpaces() {
        XidRule r45 = POLICY.rule(45);
        assertThat(r45.description())
                .isEqualTo("Preemptive cleanup, due to previous errors -- Most likely to see when "
                        + "running multiple cuda applications and hitting a DBE");
        assertThat(r45.investigation()).isEqualTo("Solo: RESTART_FM Not Solo: IGNORE (follow other Xid)");
        assertThat(r45.action()).isEqualTo(XidAction.NONE);

        assertThat(POLICY.rule(62).description()).isEqualTo("Internal micro-controller halt (newer drivers)");
    }

    @Test
    void unusedCatalogDescriptionsFallBackToTheExporterMessage() {
        XidRule r1 = POLICY.rule(1);
        assertThat(r1.description()).isEqualTo("Invalid or corrupted push buffer stream");
        assertThat(r1.recommendation()).isEqualTo("UNEXPECTED_ERR_REPORT_ISSUE");
        assertThat(r1.action()).isEqualTo(XidAction.DRAIN);
        assertThat(r1.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void untidyUpstreamFieldsAreTrimmed() {
        XidRule r154 = POLICY.rule(154);
        assertThat(r154.mnemonic()).isEqualTo("GPU_RECOVERY_ACTION_CHANGED");
        assertThat(r154.recommendation()).isEqualTo("Follow guidance as it aapplies to another Xid");
        assertThat(r154.action()).isEqualTo(XidAction.NONE);
        assertThat(r154.health()).isEqualTo(GpuHealth.HEALTHY);
        // NVSentinel has no mnemonic for 162; the catalog has one.
        XidRule r162 = POLICY.rule(162);
        assertThat(r162.mnemonic()).isEqualTo("PSHC_REENGAGED");
        assertThat(r162.recommendation()).isEqualTo("RESET_GPU");
        assertThat(r162.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void catalogOnlyXidsAndUnknownXidsGetTheDocumentedDefault() {
        XidRule r171 = POLICY.rule(171);
        assertThat(r171.known()).isTrue();
        assertThat(r171.mnemonic()).isEqualTo("UNCORRECTABLE_DRAM_ERROR");
        assertThat(r171.recommendation()).isNull();
        assertThat(r171.action()).isEqualTo(XidAction.NONE);
        assertThat(r171.health()).isEqualTo(GpuHealth.DEGRADED);

        XidRule unknown = POLICY.rule(4242);
        assertThat(unknown.known()).isFalse();
        assertThat(unknown.description()).isNull();
        assertThat(unknown.action()).isEqualTo(POLICY.defaultAction()).isEqualTo(XidAction.NONE);
        assertThat(unknown.health()).isEqualTo(POLICY.defaultHealth()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(unknown.label()).isEqualTo("XID 4242");
    }

    @Test
    void xidZeroIsNoErrorAtAll() {
        XidRule r0 = POLICY.rule(0);
        assertThat(r0.description()).isEqualTo("No Error");
        assertThat(r0.health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void everyXidNvSentinelListsHasAnExplicitDecision() {
        String defaultNote = POLICY.rule(4242).note();
        assertThat(POLICY.knownRules())
                .hasSize(173)
                .first()
                .extracting(XidRule::xid)
                .isEqualTo(0);
        assertThat(POLICY.knownRules().stream().filter(r -> r.recommendation() != null))
                .hasSize(162)
                .allSatisfy(r -> assertThat(r.note()).as("XID %d", r.xid()).isNotEqualTo(defaultNote));
    }

    @Test
    void fatalUpstreamRecommendationsNeverLeaveTheGpuHealthy() {
        assertThat(POLICY.knownRules().stream().filter(XidRule::fatal))
                .allSatisfy(r -> assertThat(r.health()).as("XID %d", r.xid()).isEqualTo(GpuHealth.FAILED));
    }

    @Test
    void versionIsDeclaredVersionPlusDigestAndChangesWithTheTables() throws IOException {
        assertThat(POLICY.version()).matches("1\\+[0-9a-f]{8}");
        String lifeline = read(XidPolicyLoader.LIFELINE).replace("xid,92,,NONE,DEGRADED", "xid,92,,NONE,HEALTHY");
        XidPolicy changed = XidPolicyLoader.parse(
                read(XidPolicyLoader.NVSENTINEL), read(XidPolicyLoader.CATALOG), read(XidPolicyLoader.DCGM), lifeline);
        assertThat(changed.rule(92).health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(changed.version()).startsWith("1+").isNotEqualTo(POLICY.version());
    }

    @Test
    void malformedLifelineTablesAreRejected() throws IOException {
        String ns = read(XidPolicyLoader.NVSENTINEL);
        String cat = read(XidPolicyLoader.CATALOG);
        String dcgm = read(XidPolicyLoader.DCGM);
        String own = read(XidPolicyLoader.LIFELINE);
        assertThatThrownBy(() -> XidPolicyLoader.parse(ns, cat, dcgm, own.replace("# version: 1", "")))
                .hasMessageContaining("version");
        assertThatThrownBy(() -> XidPolicyLoader.parse(ns, cat, dcgm, own.replaceAll("(?m)^default,.*$", "")))
                .hasMessageContaining("default");
        assertThatThrownBy(() -> XidPolicyLoader.parse(ns, cat, dcgm, own.replace("NONE,DEGRADED", "NONE,SICK")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shippedTablesAreVerbatimCopiesOfTheFixtures() throws IOException {
        Path fixtures = fixturesDir();
        for (String name : new String[] {XidPolicyLoader.NVSENTINEL, XidPolicyLoader.CATALOG, XidPolicyLoader.DCGM}) {
            assertThat(read(name).getBytes(StandardCharsets.UTF_8))
                    .as(name)
                    .isEqualTo(Files.readAllBytes(fixtures.resolve(name)));
        }
    }

    /** The vendored upstream tables the shipped ones must equal byte for byte. */
    private static Path fixturesDir() {
        return Fixtures.path("xid");
    }

    private static String read(String name) throws IOException {
        try (InputStream in = XidPolicyTest.class.getResourceAsStream("/xid/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
