package io.lifeline.domain.job.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.Participant;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.membership.Membership;
import io.lifeline.domain.job.membership.RendezvousRound;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check of a {@code restart-excluding-node} advice fails for the node back in the job's group only once it had
 * been out of it: the group the workers' own restart forms right after the failure, before the drain took the node out,
 * still holds it, and is not the node coming back.
 */
class ExcludedNodeCheckTest {

    private static final Instant DECIDED = Instant.parse("2026-12-01T10:00:00Z");
    private static final RecoveryRules RULES = RecoveryRules.defaults();
    private static final Advice ADVICE = RecoveryDecider.advice(
            RULES,
            "ml/train",
            "ml/train#2",
            1,
            Remedy.RESTART_EXCLUDING_NODE,
            "node-b",
            RecoveryRules.FAILING_NODE,
            List.of("attempt 1 failed only on node-b", "attempt 2 failed only on node-b"),
            "on",
            DECIDED);

    @Test
    void theGroupReformedByTheRestartUnderWayIsNotTheNodeComingBack() {
        Instant reformed = DECIDED.plusSeconds(17);
        RecoveryCheck.Result r = RecoveryCheck.check(
                ADVICE, observe(List.of("node-a", "node-b"), reformed, true, null), RULES, reformed.plusSeconds(1));

        assertThat(r.verdict()).isEqualTo(Verdict.PENDING);
    }

    @Test
    void theNodeInTheGroupAfterItWasOutFailsTheAdvice() {
        Instant out = DECIDED.plusSeconds(20);
        Instant back = DECIDED.plusSeconds(40);
        RecoveryCheck.Result r = RecoveryCheck.check(
                ADVICE, observe(List.of("node-a", "node-b"), back, false, out), RULES, back.plusSeconds(1));

        assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(r.reason())
                .contains("node node-b is in the job's group again")
                .contains(out.toString());
    }

    @Test
    void theNodeOutCordonedAndTrainingResumedForTheHoldIsVerified() {
        Instant out = DECIDED.plusSeconds(20);
        // Held since the group without the node formed.
        Instant now = out.plus(RULES.hold()).plusSeconds(1);
        RecoveryCheck.Result r = RecoveryCheck.check(ADVICE, observe(List.of("node-a"), out, true, out), RULES, now);

        assertThat(r.verdict()).as(r.reason()).isEqualTo(Verdict.VERIFIED);
    }

    @Test
    void membershipTellsWhenANodeWasFirstOutOfTheGroupSinceAMoment() {
        Membership m = new Membership(16, 16);
        m.record(round(1, DECIDED.minusSeconds(60), "node-a", "node-b"));
        m.record(round(2, DECIDED.plusSeconds(17), "node-a", "node-b"));
        assertThat(m.leftAfter("node-b", DECIDED)).isNull();
        m.record(round(3, DECIDED.plusSeconds(30), "node-a"));
        m.record(round(4, DECIDED.plusSeconds(50), "node-a", "node-b"));
        assertThat(m.leftAfter("node-b", DECIDED)).isEqualTo(DECIDED.plusSeconds(30));
        assertThat(m.leftAfter("node-a", DECIDED)).isNull();
    }

    private static RecoveryCheck.Observation observe(
            List<String> nodes, Instant roundAt, boolean cordoned, Instant nodeLeftAt) {
        return new RecoveryCheck.Observation(
                "running",
                true,
                false,
                false,
                IncidentOutcome.RECOVERED,
                roundAt,
                roundAt.plusSeconds(1),
                100L,
                nodes,
                roundAt,
                cordoned,
                nodeLeftAt,
                List.of("node-a", "node-b"));
    }

    private static RendezvousRound round(int n, Instant at, String... nodes) {
        List<Participant> ps = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            ps.add(new Participant(nodes[i], i, 1));
        }
        return new RendezvousRound("run", n, nodes.length, at, ps);
    }
}
