package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The legal transitions of nodes and jobs, one test per transition that matters. */
class PhaseTest {

    @Test
    void readyToNoticedWhenASpotNoticeArrives() {
        assertThat(NodePhase.NOTICED.checkFollows(NodePhase.READY)).isEqualTo(NodePhase.NOTICED);
    }

    @Test
    void noticedToTerminatedAtTheDeadline() {
        assertThat(NodePhase.TERMINATED.checkFollows(NodePhase.NOTICED)).isEqualTo(NodePhase.TERMINATED);
    }

    @Test
    void notReadyToReadyWhenRepaired() {
        assertThat(NodePhase.READY.checkFollows(NodePhase.NOT_READY)).isEqualTo(NodePhase.READY);
    }

    @Test
    void aTerminatedNodeNeverComesBack() {
        assertThatThrownBy(() -> NodePhase.READY.checkFollows(NodePhase.TERMINATED))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("node cannot go from TERMINATED to READY");
    }

    @Test
    void runningToRestartingWhenWorkersFail() {
        assertThat(JobPhase.RESTARTING.checkFollows(JobPhase.RUNNING)).isEqualTo(JobPhase.RESTARTING);
    }

    @Test
    void restartingToWaitingWhenFewerThanMinNodesAreLeft() {
        assertThat(JobPhase.WAITING.checkFollows(JobPhase.RESTARTING)).isEqualTo(JobPhase.WAITING);
    }

    @Test
    void runningToRescalingForAPlannedMembershipChange() {
        assertThat(JobPhase.RESCALING.checkFollows(JobPhase.RUNNING)).isEqualTo(JobPhase.RESCALING);
    }

    @Test
    void suspendingToSuspendedOnceSaved() {
        assertThat(JobPhase.SUSPENDED.checkFollows(JobPhase.SUSPENDING)).isEqualTo(JobPhase.SUSPENDED);
    }

    @Test
    void aJobTrainsOnlyAfterRestoring() {
        assertThatThrownBy(() -> JobPhase.RUNNING.checkFollows(JobPhase.RESTARTING))
                .isInstanceOf(IllegalStateException.class);
        assertThat(JobPhase.RUNNING.checkFollows(JobPhase.RESTORING)).isEqualTo(JobPhase.RUNNING);
    }

    @Test
    void workersAreAliveOnlyWhileRestoringTrainingOrSaving() {
        assertThat(JobPhase.values())
                .filteredOn(JobPhase::workersAlive)
                .containsExactlyInAnyOrder(
                        JobPhase.RESTORING, JobPhase.RUNNING, JobPhase.RESCALING, JobPhase.SUSPENDING);
    }
}
