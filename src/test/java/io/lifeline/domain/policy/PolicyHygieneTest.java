package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.FleetFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PolicyHygieneTest {

    private FleetFixture f;
    private final PolicyHygiene hygiene = new PolicyHygiene();

    @BeforeEach
    void fleet() {
        f = new FleetFixture();
        f.node("n1", "spot").node("n2", "spot");
        f.job("team-a/llm", 1, 2, "n1");
    }

    private PolicyDecision checkpoint(String job) {
        return new PolicyDecision(
                PolicyName.STALE_CHECKPOINT,
                PolicyMode.ON,
                new ActionRequest(ActionKind.CHECKPOINT_NOW, job, Map.of(), "stale"),
                "stale:" + job + ":c1");
    }

    private PolicyDecision reviewed(PolicyDecision d) {
        return hygiene.review(List.of(d), f.model.jobs(), f.clock.instant()).get(0);
    }

    @Test
    void aJobTrainingPastItsGraceWithTrainersThatAnswerIsCommanded() {
        f.later(90).progress("team-a/llm", 200);
        assertThat(reviewed(checkpoint("team-a/llm")).isSkipped()).isFalse();
    }

    @Test
    void aJobThatJustStartedTrainingWaitsForItsGrace() {
        f.later(30).progress("team-a/llm", 150);
        PolicyDecision d = reviewed(checkpoint("team-a/llm"));
        assertThat(d.skipped()).isEqualTo("training for 30 s only, inside the start-up grace of 60 s");
        assertThat(d.idempotencyKey()).isEqualTo("stale:team-a/llm:c1|skipped:start-up");
    }

    @Test
    void aJobWhoseTrainersWentSilentIsNotCommanded() {
        f.later(600);
        assertThat(reviewed(checkpoint("team-a/llm")).skipped())
                .isEqualTo("no progress from its trainers for 600 s: nobody may answer");
    }

    @Test
    void aJobNotTrainingOrUnknownIsNotCommanded() {
        f.apply(
                "team-b/new",
                io.lifeline.domain.event.EventType.JOB_SUBMITTED,
                new io.lifeline.domain.event.JobData.Submitted("team-b", "bob", "low", null, 8, 600L));
        assertThat(reviewed(checkpoint("team-b/new")).skipped())
                .isEqualTo("job is pending: its trainers are not training");
        assertThat(reviewed(checkpoint("team-c/none")).skipped()).isEqualTo("no job team-c/none is known");
    }

    @Test
    void aNodeActionIsNotHeldBack() {
        PolicyDecision drain = new PolicyDecision(
                PolicyName.NOTICE_CHECKPOINT_DRAIN,
                PolicyMode.ON,
                new ActionRequest(ActionKind.DRAIN, "n1", Map.of(), "notice"),
                "notice:n1");
        assertThat(reviewed(drain).isSkipped()).isFalse();
    }

    @Test
    void repeatedFailuresBackOffExponentiallyUpToTheMaximumAndASuccessResets() {
        hygiene.settings(new PolicyHygiene.Settings(
                Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofMinutes(1), Duration.ofMinutes(5)));
        Instant t = f.clock.instant();
        assertThat(hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t).until())
                .isEqualTo(t.plusSeconds(60));
        assertThat(hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t).until())
                .isEqualTo(t.plusSeconds(120));
        assertThat(hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t).until())
                .isEqualTo(t.plusSeconds(240));
        PolicyHygiene.Backoff capped = hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t);
        assertThat(capped.failures()).isEqualTo(4);
        assertThat(capped.until()).isEqualTo(t.plusSeconds(300));
        for (int i = 0; i < 100; i++) {
            capped = hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t);
        }
        assertThat(capped.until()).isEqualTo(t.plusSeconds(300));

        f.later(90).progress("team-a/llm", 200);
        PolicyDecision d = reviewed(checkpoint("team-a/llm"));
        assertThat(d.skipped()).startsWith("backing off after 104 failed action(s) on team-a/llm, until ");
        assertThat(d.idempotencyKey()).endsWith("|skipped:backoff-104");
        // Another policy, or the same policy on another target, is not held back.
        assertThat(hygiene.backoff(PolicyName.CAPACITY_GROW, "team-a/llm", f.clock.instant()))
                .isEmpty();

        hygiene.succeeded(PolicyName.STALE_CHECKPOINT, "team-a/llm");
        assertThat(reviewed(checkpoint("team-a/llm")).isSkipped()).isFalse();
        assertThat(hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t).failures())
                .isEqualTo(1);
    }

    @Test
    void aBackOffEndsWhenItsTimeHasPassed() {
        Instant t = f.clock.instant();
        hygiene.failed(PolicyName.STALE_CHECKPOINT, "team-a/llm", t);
        f.later(61).progress("team-a/llm", 200);
        assertThat(reviewed(checkpoint("team-a/llm")).isSkipped()).isFalse();
    }
}
