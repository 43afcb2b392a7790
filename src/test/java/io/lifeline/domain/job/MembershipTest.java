package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.TrainerData.Participant;
import io.lifeline.domain.job.membership.Membership;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.domain.job.membership.WorldSizePoint;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rendezvous rounds, placement of ranks, world size over time and the node index. */
class MembershipTest {

    private static Instant t(int minute) {
        return Instant.parse("2024-05-01T10:00:00Z").plusSeconds(60L * minute);
    }

    private static RendezvousRound round(int n, int minute, String... nodes) {
        List<Participant> ps = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            ps.add(new Participant(nodes[i], i * 8, 8));
        }
        return new RendezvousRound("run", n, 8 * nodes.length, t(minute), ps);
    }

    @Test
    void placementFollowsTheNewestRoundAndLostNodes() {
        Membership m = new Membership(64, 256);
        m.record(round(1, 0, "a", "b", "c"));
        assertThat(m.worldSize()).isEqualTo(24);
        assertThat(m.markLost("b", t(5))).isTrue();
        assertThat(m.markLost("b", t(5))).isFalse();
        assertThat(m.markLost("zz", t(5))).isFalse();
        assertThat(m.worldSize()).isEqualTo(16);
        assertThat(m.gpus(8)).isEqualTo(16);
        MembershipView v = m.view("j");
        assertThat(v.placement()).extracting(Participant::node).containsExactly("a", "c");
        assertThat(v.lostNodes()).containsExactly("b");
        m.record(round(2, 6, "a", "c"));
        assertThat(m.view("j").lostNodes()).isEmpty();
        assertThat(m.view("j").worldSizeSeries())
                .extracting(WorldSizePoint::worldSize)
                .containsExactly(24, 16, 16);
        assertThat(m.view("j").worldSizeSeries())
                .extracting(WorldSizePoint::reason)
                .containsExactly("rendezvous", "node-lost", "rendezvous");
    }

    @Test
    void aLateRoundGoesToTheHistoryOnly() {
        Membership m = new Membership(64, 256);
        m.record(round(2, 10, "a", "b"));
        assertThat(m.record(round(1, 5, "a", "b", "c"))).isFalse();
        assertThat(m.current().round()).isEqualTo(2);
        assertThat(m.view("j").rounds()).extracting(RendezvousRound::round).containsExactly(1, 2);
    }

    @Test
    void historyIsBounded() {
        Membership m = new Membership(4, 3);
        for (int i = 1; i <= 10; i++) {
            m.record(round(i, i, "a"));
        }
        assertThat(m.view("j").rounds()).extracting(RendezvousRound::round).containsExactly(7, 8, 9, 10);
        assertThat(m.view("j").worldSizeSeries()).hasSize(3);
    }

    @Test
    void theNodeIndexFollowsMembershipChanges() {
        JobDriver d = new JobDriver("ml/llm");
        d.nodes
                .add("n1", "pool-a", CapacityType.SPOT, 8)
                .add("n2", "pool-a", CapacityType.SPOT, 8)
                .add("n3", "pool-b", CapacityType.ON_DEMAND, 8);
        d.runningOn(2, "10:00:00");
        assertThat(d.jobs.jobsOn("n1")).containsExactly("ml/llm");
        assertThat(d.detail().summary().pool()).isEqualTo("pool-a");
        d.rendezvous("10:10:00", 2, 8, "n2", "n3");
        assertThat(d.jobs.jobsOn("n1")).isEmpty();
        assertThat(d.jobs.jobsOn("n3")).containsExactly("ml/llm");
        d.finished("10:20:00", io.lifeline.domain.event.JobData.Outcome.SUCCEEDED);
        assertThat(d.jobs.jobsOn("n2")).isEmpty();
        assertThat(d.jobs.membership("ml/llm").orElseThrow().rounds()).hasSize(2);
    }
}
