package io.lifeline.domain.job.advice;

/**
 * What the interval advice says of a job held to an ETTR target: which checkpoint intervals keep it inside its
 * objective at the observed interruption rate, under the advice's own ETTR model ({@link IntervalAdvisor#MODEL}).
 *
 * @param ettrTarget        the target (0..1) of the tightest objective the job is under
 * @param reachable         whether some interval's expected ETTR meets the target, or null when C or M is unknown
 * @param lowestSeconds     the shortest interval whose expected ETTR meets the target, or null when none does
 * @param highestSeconds    the longest such interval, or null when none does
 * @param bestEttr          the highest expected ETTR at the observed rate, or null when C or M is unknown
 * @param bestSeconds       the interval it is reached at, or null when C or M is unknown
 * @param currentMeets      whether the expected ETTR at the current interval meets the target, or null when unknown
 * @param recommendedMeets  whether the expected ETTR at the recommended interval meets it, or null when unknown
 */
public record ObjectiveAdvice(
        double ettrTarget,
        Boolean reachable,
        Double lowestSeconds,
        Double highestSeconds,
        Double bestEttr,
        Double bestSeconds,
        Boolean currentMeets,
        Boolean recommendedMeets) {}
