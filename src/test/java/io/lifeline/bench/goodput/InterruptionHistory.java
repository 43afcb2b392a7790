package io.lifeline.bench.goodput;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/** A seeded history of interruptions for one job, the same for both arms. */
final class InterruptionHistory {

    /** What interrupted training, with its share of Llama 3's 466 interruptions (spot reclaims apart). */
    enum Cause {
        /** A node is lost without notice: GPU, memory, network, host. */
        HARDWARE(356),
        /** A worker crashes; its node stays. */
        SOFTWARE(56),
        /** The job stops making progress with every process alive. */
        HANG(7),
        /** Maintenance announced ahead. */
        PLANNED(47),
        /** A spot node is reclaimed, announced ahead. */
        SPOT_RECLAIM(0);

        final int llama3Count;

        Cause(int llama3Count) {
            this.llama3Count = llama3Count;
        }

        boolean announced() {
            return this == PLANNED || this == SPOT_RECLAIM;
        }

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * One interruption.
     *
     * @param atSecond    when it strikes (the node goes, the worker dies, the job hangs)
     * @param cause       what it is
     * @param slot        which of the job's node slots it strikes
     * @param leadSeconds how long before it its notice comes, 0 for none
     */
    record Interruption(long atSecond, Cause cause, int slot, long leadSeconds) {

        long noticeSecond() {
            return atSecond - leadSeconds;
        }
    }

    private InterruptionHistory() {}

    /** Interruptions of cause {@code c} per second for the setup's job (what {@link #draw} and the bound use). */
    static double rate(GoodputSetup s, Cause c) {
        return c == Cause.SPOT_RECLAIM
                ? GoodputSetup.reclaimsPerNodeSecond() * s.spotNodes() * s.rateScale()
                : GoodputSetup.llama3PerGpuSecond()
                        * s.gpus()
                        * s.rateScale()
                        * c.llama3Count
                        / GoodputSetup.LLAMA3_INTERRUPTIONS;
    }

    /** Poisson arrivals per cause over the setup's days; time-ordered by strike. */
    static List<Interruption> draw(GoodputSetup s) {
        SplittableRandom rng = new SplittableRandom(s.seed());
        long end = Math.round(s.days() * 86_400);
        List<Interruption> out = new ArrayList<>();
        for (Cause c : Cause.values()) {
            double rate = rate(s, c);
            if (rate <= 0) {
                continue;
            }
            double t = 0;
            while (true) {
                t += -Math.log(1 - rng.nextDouble()) / rate;
                long at = Math.round(t);
                if (at >= end) {
                    break;
                }
                int slot = c == Cause.SPOT_RECLAIM ? rng.nextInt(s.spotNodes()) : rng.nextInt(s.nodes());
                long lead = c.announced() ? Math.round(s.noticeSeconds()) : 0;
                if (at - lead < 1) {
                    continue;
                }
                out.add(new Interruption(at, c, slot, lead));
            }
        }
        out.sort(Comparator.comparingLong(Interruption::atSecond)
                .thenComparing(i -> i.cause().ordinal()));
        return out;
    }
}
