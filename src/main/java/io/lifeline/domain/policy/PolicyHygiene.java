package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the policies from acting on a target that cannot obey yet, and from trying again and again what keeps
 * failing. A decision that would command a job's trainers (checkpoint-now, rescale) waits until the job trains, is
 * past its start-up grace and its trainers report progress; a policy whose actions on a target failed backs off,
 * doubling the pause from {@code backoffInitial} up to {@code backoffMax}, until one succeeds. Such a decision is not
 * dropped: it is handed on {@linkplain PolicyDecision#skipped() skipped}, with the reason, to be recorded like a dry
 * run.
 *
 * <p>Pure apart from the failures it remembers; thread-safe (decisions are reviewed on the model's thread, outcomes
 * arrive on the executor's).
 */
public final class PolicyHygiene {

    /**
     * @param startupGrace    how long a job must have been training (since it last entered RUNNING) before a policy
     *                        commands its trainers: the first minutes after a start or a restore are theirs
     * @param trainerSilence  a job whose trainers reported no progress for longer is not commanded: nobody may answer
     * @param backoffInitial  the pause after a policy's first failed action on a target
     * @param backoffMax      the longest pause, however many failures followed
     */
    public record Settings(
            Duration startupGrace, Duration trainerSilence, Duration backoffInitial, Duration backoffMax) {

        public static Settings defaults() {
            return new Settings(
                    Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofMinutes(1), Duration.ofHours(1));
        }
    }

    /** How many actions of a policy on a target failed in a row, and until when it waits. */
    public record Backoff(int failures, Instant until) {}

    private record Key(PolicyName policy, String target) {}

    private volatile Settings settings = Settings.defaults();
    private final Map<Key, Backoff> backoffs = new HashMap<>();

    public void settings(Settings s) {
        this.settings = s;
    }

    public Settings settings() {
        return settings;
    }

    /** The decisions, each as it is or skipped with the reason it must wait. */
    public List<PolicyDecision> review(List<PolicyDecision> decisions, Jobs jobs, Instant now) {
        List<PolicyDecision> out = new ArrayList<>(decisions.size());
        for (PolicyDecision d : decisions) {
            Optional<Backoff> b = backoff(d.policy(), d.request().target(), now);
            if (b.isPresent()) {
                out.add(d.skip(
                        "backing off after " + b.get().failures() + " failed action(s) on "
                                + d.request().target() + ", until " + b.get().until(),
                        "backoff-" + b.get().failures()));
                continue;
            }
            out.add(notReady(d.request(), jobs, now)
                    .map(r -> d.skip(r.reason(), r.code()))
                    .orElse(d));
        }
        return out;
    }

    /** Why a job's trainers cannot take the command now, with a short stable code; empty when they can. */
    record Unready(String reason, String code) {}

    Optional<Unready> notReady(ActionRequest r, Jobs jobs, Instant now) {
        if (r.kind() != ActionKind.CHECKPOINT_NOW && r.kind() != ActionKind.RESCALE) {
            return Optional.empty();
        }
        Optional<JobSummary> found = jobs.detail(r.target()).map(JobDetail::summary);
        if (found.isEmpty()) {
            return Optional.of(new Unready("no job " + r.target() + " is known", "unknown"));
        }
        JobSummary j = found.get();
        Settings s = settings;
        if (j.state() != JobState.RUNNING) {
            return Optional.of(new Unready(
                    "job is " + j.state().name().toLowerCase(java.util.Locale.ROOT) + ": its trainers are not training",
                    "state-" + j.state().name().toLowerCase(java.util.Locale.ROOT)));
        }
        if (j.stateSince() != null && Duration.between(j.stateSince(), now).compareTo(s.startupGrace()) < 0) {
            return Optional.of(new Unready(
                    "training for " + Duration.between(j.stateSince(), now).toSeconds()
                            + " s only, inside the start-up grace of "
                            + s.startupGrace().toSeconds() + " s",
                    "start-up"));
        }
        if (j.lastProgressAt() == null
                || Duration.between(j.lastProgressAt(), now).compareTo(s.trainerSilence()) > 0) {
            return Optional.of(new Unready(
                    j.lastProgressAt() == null
                            ? "its trainers never reported progress"
                            : "no progress from its trainers for "
                                    + Duration.between(j.lastProgressAt(), now).toSeconds() + " s: nobody may answer",
                    "silent"));
        }
        return Optional.empty();
    }

    /** A policy's action on a target failed: it waits, twice as long as after the failure before. */
    public synchronized Backoff failed(PolicyName policy, String target, Instant at) {
        Key k = new Key(policy, target);
        Backoff before = backoffs.get(k);
        int n = before == null ? 1 : before.failures() + 1;
        Settings s = settings;
        Duration pause = s.backoffInitial().multipliedBy(1L << Math.min(n - 1, 30));
        if (pause.compareTo(s.backoffMax()) > 0 || pause.isNegative()) {
            pause = s.backoffMax();
        }
        Backoff b = new Backoff(n, at.plus(pause));
        backoffs.put(k, b);
        return b;
    }

    /** A policy's action on a target succeeded: it starts afresh. */
    public synchronized void succeeded(PolicyName policy, String target) {
        backoffs.remove(new Key(policy, target));
    }

    /** The back-off in force for a policy on a target at {@code now}, if any. */
    public synchronized Optional<Backoff> backoff(PolicyName policy, String target, Instant now) {
        Backoff b = backoffs.get(new Key(policy, target));
        return b != null && now.isBefore(b.until()) ? Optional.of(b) : Optional.empty();
    }
}
