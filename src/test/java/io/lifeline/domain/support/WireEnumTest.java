package io.lifeline.domain.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.incident.IncidentCause;
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
        for (String s : new String[] {"notice-received", "NOTICE_RECEIVED", "notice_received", "Notice-Received",
            " notice-received "}) {
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
}
