package io.lifeline.domain.job.recovery;

import java.time.Instant;
import java.util.List;

/**
 * One remedy decided for one incident, recorded before anything is done, with the evidence it rests on, the state it
 * expects to reach and by when; then checked against fresh observations.
 *
 * @param job           the job
 * @param incident      the incident it answers
 * @param rung          1 for the first remedy of the incident, one more per escalation
 * @param remedy        what it does
 * @param node          the node it is about ({@link Remedy#aboutNode()}: the one whose pods it replaces, takes out,
 *                      or shrinks the job without), else null
 * @param rule          the rule that chose it ({@code escalation} when a lower rung failed)
 * @param rulesVersion  the version of the rules
 * @param evidence      what it rests on (bounded)
 * @param expected      the state it expects, in words
 * @param decidedAt     when it was decided
 * @param deadline      when its expected state must be reached
 * @param mode          the policy's mode when it was decided: {@code on} (acted on) or {@code dry-run} (recorded only)
 * @param verdict       where it stands
 * @param outcome       what the check saw (why verified, why failed), null while pending
 * @param checkedAt     when the verdict was reached, null while pending
 */
public record Advice(
        String job,
        String incident,
        int rung,
        Remedy remedy,
        String node,
        String rule,
        String rulesVersion,
        List<String> evidence,
        String expected,
        Instant decidedAt,
        Instant deadline,
        String mode,
        Verdict verdict,
        String outcome,
        Instant checkedAt) {

    public Advice {
        evidence = List.copyOf(evidence);
    }

    /** {@code <incident>/<rung>}: unique per job. */
    public String id() {
        return incident + "/" + rung;
    }

    public boolean pending() {
        return verdict == Verdict.PENDING;
    }

    /** Whether it was only recorded (dry run): nothing was done. */
    public boolean dryRun() {
        return "dry-run".equals(mode);
    }

    /** This advice with its verdict. */
    public Advice checked(Verdict v, String why, Instant at) {
        return new Advice(
                job,
                incident,
                rung,
                remedy,
                node,
                rule,
                rulesVersion,
                evidence,
                expected,
                decidedAt,
                deadline,
                mode,
                v,
                why,
                at);
    }
}
