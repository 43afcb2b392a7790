package io.lifeline.domain.job.recovery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One job's recovery advice, newest last; bounded. Built from the {@code job.recovery_*} events alone. */
public final class RecoveryLog {

    /** Advice kept per job. */
    public static final int MAX_ADVICE = 32;

    private final List<Advice> advice = new ArrayList<>();

    /** A log holding {@code saved} (from {@link #save()}), or empty. */
    public static RecoveryLog restore(List<Advice> saved) {
        RecoveryLog log = new RecoveryLog();
        if (saved != null) {
            saved.forEach(log::add);
        }
        return log;
    }

    public List<Advice> save() {
        return List.copyOf(advice);
    }

    private void add(Advice a) {
        if (advice.size() == MAX_ADVICE) {
            advice.remove(0);
        }
        advice.add(a);
    }

    /** Records advice; a repeat of one already recorded (same incident and rung) changes nothing. */
    public boolean advised(Advice a) {
        if (find(a.incident(), a.rung()) != null) {
            return false;
        }
        add(a);
        return true;
    }

    /** Records a verdict on pending advice; false when there is no such advice or it was already judged. */
    public boolean checked(String incident, int rung, Verdict v, String why, Instant at) {
        for (int i = 0; i < advice.size(); i++) {
            Advice a = advice.get(i);
            if (a.incident().equals(incident) && a.rung() == rung) {
                if (!a.pending() || v == Verdict.PENDING) {
                    return false;
                }
                advice.set(i, a.checked(v, why, at));
                return true;
            }
        }
        return false;
    }

    public Advice find(String incident, int rung) {
        for (Advice a : advice) {
            if (a.incident().equals(incident) && a.rung() == rung) {
                return a;
            }
        }
        return null;
    }

    /** The newest advice of all, or null. */
    public Advice latest() {
        return advice.isEmpty() ? null : advice.get(advice.size() - 1);
    }

    /** All kept, oldest first. */
    public List<Advice> all() {
        return List.copyOf(advice);
    }
}
