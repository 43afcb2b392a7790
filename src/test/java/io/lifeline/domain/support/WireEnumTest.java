package io.lifeline.domain.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.incident.IncidentCause;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One spelling out, both in: values go out by their wire name and are read back from it or from the Java constant. */
class WireEnumTest {

    @Test
    void theWireNameIsTheConstantInLowerCaseWithHyphensUnlessTheEnumHasItsOwn() {
        assertThat(JobState.RUNNING.wire()).isEqualTo("running");
        assertThat(NodeLifecycle.NOTICE_RECEIVED.wire()).isEqualTo("notice-received");
        assertThat(IncidentCause.SPOT_RECLAIM.wire()).isEqualTo("spot-reclaim");
        assertThat(GroupBy.INSTANCE_TYPE.wire()).isEqualTo("instanceType");
        assertThat(WireEnum.fromConstant("RANK_0")).isEqualTo("rank-0");
    }

    @Test
    void eitherSpellingInAnyCaseNamesTheSameValue() {
        for (String s : new String[] {
            "notice-received", "NOTICE_RECEIVED", "notice_received", "Notice-Received", " notice-received "
        }) {
            assertThat(WireEnum.parse(NodeLifecycle.class, s)).as(s).contains(NodeLifecycle.NOTICE_RECEIVED);
        }
        assertThat(WireEnum.parse(GroupBy.class, "instanceType")).contains(GroupBy.INSTANCE_TYPE);
        assertThat(WireEnum.parse(GroupBy.class, "INSTANCE_TYPE")).contains(GroupBy.INSTANCE_TYPE);
        assertThat(WireEnum.parse(JobState.class, "runing")).isEmpty();
        assertThat(WireEnum.parse(JobState.class, null)).isEmpty();
    }

    @Test
    void anEnumThatIsNoWireEnumIsReadByItsConstantAndNamedByTheDefaultRule() {
        assertThat(WireEnum.parse(ActionState.class, "running")).contains(ActionState.RUNNING);
        assertThat(WireEnum.wireOf(ActionState.RUNNING)).isEqualTo("running");
        assertThat(WireEnum.wireOf(GroupBy.CAPACITY_TYPE)).isEqualTo("capacityType");
    }

    /**
     * The OpenAPI document lists an enumeration by the default rule (it cannot tell which enum a schema came from): an
     * enum with names of its own is listed wrongly there, so it is one that was answered so before wire names were
     * the rule, and known here.
     */
    @Test
    void everyWireEnumButTheKnownOnesFollowsTheDefaultRule() {
        List<String> wireEnums = new ArrayList<>();
        List<String> ownNames = new ArrayList<>();
        for (JavaClass c : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.lifeline.domain")) {
            if (!c.isEnum() || !c.isAssignableTo(WireEnum.class)) {
                continue;
            }
            wireEnums.add(c.getSimpleName());
            for (Object constant : c.reflect().getEnumConstants()) {
                Enum<?> e = (Enum<?>) constant;
                if (!((WireEnum) e).wire().equals(WireEnum.fromConstant(e.name()))) {
                    ownNames.add(c.getSimpleName() + "." + e.name());
                }
            }
        }
        assertThat(wireEnums)
                .contains("JobState", "NodeLifecycle", "IncidentCause", "GpuHealth")
                .hasSizeGreaterThan(15);
        assertThat(ownNames)
                .as("the reliability table's groupBy answers the names its query takes")
                .containsExactlyInAnyOrder("GroupBy.INSTANCE_TYPE", "GroupBy.CAPACITY_TYPE");
    }
}
