package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.demo.Scenario;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.security.identity.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A drain of a node whose job keeps its newest checkpoint on that node's local disk, end to end with the demo's
 * trainers: the dry run reports no safe checkpoint, the drain asks for a checkpoint on durable storage first and
 * waits for it, and the trainers save one to their durable location; a job with no durable location refuses, and
 * the drain says it found no checkpoint that survives the node.
 */
class NodeLocalDrainTest {

    private static final String JOB = "speech/whisper-large-v3-ft";
    private static final Caller OPERATOR = Caller.unrestricted("node-local-drain-test");

    @Test
    void aDrainOfTheNodeHoldingTheNewestCheckpointSavesToDurableStorageFirst() throws Exception {
        try (QuickStartRig rig = new QuickStartRig("node-local-drain", false)) {
            rig.start();
            String node = trainingOnNodeLocal(rig);

            Impact impact = rig.actions.dryRun(drain(node), OPERATOR);
            assertThat(impact.noSafeCheckpoint()).containsExactly(JOB);
            assertThat(impact.checkpointsCounted()).isEqualTo("checkpoints that survive the loss of " + node);
            assertThat(impact.warnings())
                    .anySatisfy(w -> assertThat(w)
                            .startsWith(JOB + ": no safe checkpoint")
                            .contains("node-local on " + node)
                            .contains("saves to durable storage first"));

            ActionView done = runDrain(rig, node);
            assertThat(done.state()).as("%s", done).isEqualTo(ActionState.SUCCEEDED);
            assertThat(step(done, "request checkpoint " + JOB).detail()).startsWith("prepare_exit to durable storage");
            ActionStepView saved = step(done, "await checkpoint " + JOB);
            assertThat(saved.state()).isEqualTo(StepState.DONE);
            assertThat(saved.detail()).isEqualTo("checkpoint of " + JOB + " completed that survives " + node);
            assertThat(done.outcome()).doesNotContain("no checkpoint that survives");
            List<CheckpointView> durable = rig.read(m -> m.jobs().checkpoints(JOB)).orElseThrow().checkpoints().stream()
                    .filter(c -> c.completedAt() != null && c.completedAt().isAfter(done.createdAt()))
                    .filter(c -> "object-storage".equals(c.durability()))
                    .toList();
            assertThat(durable)
                    .isNotEmpty()
                    .allSatisfy(c -> assertThat(c.uri()).startsWith("s3://acme-ml-checkpoints/speech/"));
            assertThat(durable.get(0).completedAt())
                    .isBefore(step(done, "list pods").endedAt());
        }
    }

    @Test
    void aJobWithNoDurableStorageRefusesAndTheDrainSaysItFoundNoSafeCheckpoint() throws Exception {
        Scenario builtIn = new ScenarioParser().loadDefault();
        List<Scenario.Job> jobs = builtIn.jobs().stream()
                .map(j -> !j.key().equals(JOB) ? j : withoutDurable(j))
                .toList();
        Scenario scenario = new Scenario(
                builtIn.seed(),
                builtIn.telemetryIntervalSeconds(),
                builtIn.progressIntervalSeconds(),
                builtIn.xidRatePerNodeHour(),
                builtIn.fatalXidFraction(),
                builtIn.replacementDelaySeconds(),
                builtIn.nodeRepairSeconds(),
                builtIn.firstNoticeAfterSeconds(),
                builtIn.pools(),
                jobs);
        try (QuickStartRig rig = new QuickStartRig("node-local-refused", false)) {
            rig.start(scenario);
            String node = trainingOnNodeLocal(rig);

            ActionView done = runDrain(rig, node);
            ActionStepView saved = step(done, "await checkpoint " + JOB);
            assertThat(saved.state()).isEqualTo(StepState.FAILED);
            assertThat(saved.detail()).contains("rejected the command: no durable checkpoint storage configured");
            assertThat(done.outcome()).contains("no checkpoint that survives " + node + " for " + JOB);
        }
    }

    /** Advances until the job trains with its newest checkpoint on its nodes' disks; answers one of its nodes. */
    private static String trainingOnNodeLocal(QuickStartRig rig) throws Exception {
        for (int s = 0; s < 1200; s += 5) {
            rig.advance(5);
            JobDetail d = rig.read(m -> m.jobs().detail(JOB)).orElse(null);
            FreshnessView f = d == null ? null : d.freshness();
            if (d != null
                    && d.summary().state() == JobState.RUNNING
                    && f.newestNotSurviving()
                    && d.membership().current() != null) {
                assertThat(d.summary().nodeLocalCheckpoint()).isTrue();
                assertThat(f.newestDurability()).isEqualTo("node-local");
                return d.membership().current().participants().get(0).node();
            }
        }
        throw new AssertionError(JOB + " never trained on a node-local checkpoint");
    }

    private static ActionView runDrain(QuickStartRig rig, String node) throws Exception {
        ActionView a = rig.actions.submit(drain(node), OPERATOR, null).action();
        Instant until = rig.clock.instant().plus(Duration.ofMinutes(15));
        while (rig.clock.instant().isBefore(until)) {
            rig.advance(2);
            ActionView now = rig.actions.find(a.id()).orElseThrow();
            if (now.state().terminal()) {
                return now;
            }
        }
        throw new AssertionError("the drain of " + node + " did not end: "
                + rig.actions.find(a.id()).orElseThrow());
    }

    private static ActionRequest drain(String node) {
        return new ActionRequest(ActionKind.DRAIN, node, Map.of("deadlineSeconds", "600"), "node-local test");
    }

    private static Scenario.Job withoutDurable(Scenario.Job j) {
        Scenario.Checkpointing c = j.checkpoint();
        return new Scenario.Job(
                j.namespace(),
                j.name(),
                j.owner(),
                j.priorityClass(),
                j.queue(),
                j.pools(),
                j.minNodes(),
                j.maxNodes(),
                j.procsPerNode(),
                j.maxRestarts(),
                j.startAfterSeconds(),
                j.startStep(),
                j.stepSeconds(),
                j.samplesPerStep(),
                j.tokensPerSample(),
                new Scenario.Checkpointing(
                        c.intervalSeconds(),
                        c.blockingSeconds(),
                        c.async(),
                        c.uploadSeconds(),
                        c.sizeGiB(),
                        c.restoreSeconds(),
                        c.uriPrefix(),
                        c.failureRate(),
                        null));
    }

    private static ActionStepView step(ActionView a, String name) {
        return a.steps().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no step '" + name + "' in " + a.steps()));
    }
}
