package io.lifeline.domain.job.recovery;

import java.util.List;

/**
 * A job's recovery as operators read it: the ladder's mode for the job, the rules it decides by, the two budgets,
 * the advice per incident (newest last) and the attempts.
 *
 * @param job           the job
 * @param mode          the {@code recovery-ladder} policy's mode for the job ({@code off}, {@code dry-run}, {@code on})
 * @param rulesVersion  the rules' version
 * @param rules         the rules, in the order they are tried
 * @param budgets       failures and interruptions with notice or by plan, each against its budget
 * @param current       the newest advice, or null
 * @param advice        all advice kept, oldest first
 * @param attempts      the attempts, oldest first
 */
public record RecoveryView(
        String job,
        String mode,
        String rulesVersion,
        List<RecoveryRules.Rule> rules,
        Budgets budgets,
        Advice current,
        List<Advice> advice,
        List<Attempt> attempts) {

    public RecoveryView {
        rules = List.copyOf(rules);
        advice = List.copyOf(advice);
        attempts = List.copyOf(attempts);
    }
}
