package io.lifeline.domain.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Evaluates the rules against snapshots of the model and keeps each alert's state ({@link AlertState}). An alert
 * is one rule plus one label set; its {@link Fingerprint} is its identity, so a condition found again (in the
 * same evaluation or a later one) is the same alert, never a second one.
 *
 * <p>Bounded memory: at most {@code maxActive} pending or firing alerts (further conditions are counted as
 * overflowed and dropped until room frees up) and the {@code maxResolved} most recently resolved ones.
 *
 * <p>Not thread-safe: one evaluator calls it. Time comes from the caller.
 */
public final class AlertEngine {

    private static final Comparator<Alert> ORDER =
            Comparator.comparing(Alert::rule).thenComparing(Alert::fingerprint);

    private final AlertRules rules;
    private final int maxActive;
    private final int maxResolved;
    private final Map<String, Alert> active = new HashMap<>();
    /** Insertion order = resolution order: the eldest is dropped first. */
    private final LinkedHashMap<String, Alert> resolved = new LinkedHashMap<>();

    private final DeadLetterHistory deadLetters = new DeadLetterHistory(256);
    private long overflowedTotal;

    public AlertEngine(AlertRules rules, int maxActive, int maxResolved) {
        this.rules = Objects.requireNonNull(rules, "rules");
        if (maxActive < 1 || maxResolved < 0) {
            throw new IllegalArgumentException("maxActive must be >= 1 and maxResolved >= 0");
        }
        this.maxActive = maxActive;
        this.maxResolved = maxResolved;
    }

    public AlertRules rules() {
        return rules;
    }

    /**
     * Puts back alerts persisted by an earlier run (pending, firing and resolved), so that a restart neither fires
     * again what was firing nor forgets when it started. Call before the first evaluation.
     */
    public void restore(Collection<Alert> alerts) {
        List<Alert> sorted = new ArrayList<>(alerts);
        sorted.sort(Comparator.comparing(Alert::updatedAt));
        for (Alert a : sorted) {
            if (a.state().active() && active.size() < maxActive) {
                active.put(a.fingerprint(), a);
            } else if (a.state() == AlertState.RESOLVED) {
                keepResolved(a);
            }
        }
    }

    /** Evaluates every rule on {@code snapshot} at {@code now}, with the given silences (inactive ones are ignored). */
    public Evaluation evaluate(AlertSnapshot snapshot, Collection<Silence> silences, Instant now) {
        RuleConditions.Found found = RuleConditions.find(snapshot, rules, now, deadLetters);
        List<Silence> inForce = silences.stream().filter(s -> s.activeAt(now)).toList();
        List<AlertChange> changes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int overflowed = 0;
        for (Condition c : found.conditions()) {
            Map<String, String> labels = new LinkedHashMap<>(c.labels());
            labels.put("alertname", c.rule().alertName());
            labels.put("severity", c.settings().severity().wire());
            String fp = Fingerprint.of(labels);
            if (!seen.add(fp)) {
                continue;
            }
            Alert before = active.get(fp);
            if (before == null && active.size() >= maxActive) {
                overflowed++;
                continue;
            }
            AlertChange change = apply(c, labels, fp, before, inForce, now);
            if (change != null) {
                changes.add(change);
            }
        }
        for (Iterator<Alert> it = active.values().iterator(); it.hasNext(); ) {
            Alert a = it.next();
            if (seen.contains(a.fingerprint()) || !found.evaluated().contains(a.rule())) {
                continue;
            }
            it.remove();
            if (a.state() == AlertState.FIRING) {
                Alert r = transition(a, AlertState.RESOLVED, a.activeSince(), a.firingSince(), now, now);
                keepResolved(r);
                changes.add(new AlertChange(r, a.state()));
            } else {
                changes.add(new AlertChange(
                        transition(a, AlertState.INACTIVE, a.activeSince(), null, null, now), a.state()));
            }
        }
        overflowedTotal += overflowed;
        changes.sort(Comparator.comparing((AlertChange ch) -> ch.alert().rule())
                .thenComparing(ch -> ch.alert().fingerprint()));
        return new Evaluation(now, changes, alerts(), overflowed);
    }

    /** Applies a condition that holds to its alert; returns the change, or null when its state did not change. */
    private AlertChange apply(
            Condition c, Map<String, String> labels, String fp, Alert before, List<Silence> silences, Instant now) {
        List<String> silencedBy = silencedBy(labels, silences);
        Duration forDuration = c.settings().forDuration();
        if (before == null) {
            Alert old = resolved.remove(fp);
            AlertState from = old == null ? AlertState.INACTIVE : AlertState.RESOLVED;
            AlertState to = forDuration.isZero() ? AlertState.FIRING : AlertState.PENDING;
            Alert a = new Alert(
                    fp,
                    c.rule(),
                    labels,
                    c.annotations(),
                    AlertState.INACTIVE,
                    now,
                    null,
                    null,
                    now,
                    c.value(),
                    c.namespace(),
                    silencedBy);
            a = transition(a, to, now, to == AlertState.FIRING ? now : null, null, now);
            active.put(fp, a);
            return new AlertChange(a, from);
        }
        Alert current = new Alert(
                fp,
                c.rule(),
                labels,
                c.annotations(),
                before.state(),
                before.activeSince(),
                before.firingSince(),
                null,
                now,
                c.value(),
                c.namespace(),
                silencedBy);
        if (before.state() == AlertState.PENDING
                && !now.isBefore(before.activeSince().plus(forDuration))) {
            Alert a = transition(current, AlertState.FIRING, before.activeSince(), now, null, now);
            active.put(fp, a);
            return new AlertChange(a, AlertState.PENDING);
        }
        active.put(fp, current);
        if (before.state() == AlertState.FIRING && before.silenced() && !current.silenced()) {
            return new AlertChange(current, AlertState.FIRING);
        }
        return null;
    }

    /** The one place alert states change: refuses a transition {@link AlertState} does not allow. */
    private static Alert transition(
            Alert a, AlertState to, Instant activeSince, Instant firingSince, Instant resolvedAt, Instant now) {
        if (!to.canFollow(a.state())) {
            throw new IllegalStateException(
                    "alert " + a.fingerprint() + ": " + a.state() + " -> " + to + " is not allowed");
        }
        return a.with(to, activeSince, firingSince, resolvedAt, now);
    }

    private static List<String> silencedBy(Map<String, String> labels, List<Silence> silences) {
        List<String> ids = new ArrayList<>();
        for (Silence s : silences) {
            if (s.matches(labels)) {
                ids.add(s.id());
            }
        }
        return ids;
    }

    private void keepResolved(Alert a) {
        resolved.remove(a.fingerprint());
        resolved.put(a.fingerprint(), a);
        while (resolved.size() > maxResolved) {
            Iterator<String> eldest = resolved.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** Every alert held: pending and firing (by rule and fingerprint), then the resolved ones. */
    public List<Alert> alerts() {
        List<Alert> a = new ArrayList<>(active.values());
        a.sort(ORDER);
        List<Alert> r = new ArrayList<>(resolved.values());
        r.sort(ORDER);
        a.addAll(r);
        return a;
    }

    /** The alert with this fingerprint, or null. */
    public Alert find(String fingerprint) {
        Alert a = active.get(fingerprint);
        return a != null ? a : resolved.get(fingerprint);
    }

    /** Conditions dropped so far because the engine was full. */
    public long overflowedTotal() {
        return overflowedTotal;
    }
}
