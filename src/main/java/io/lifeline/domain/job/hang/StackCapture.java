package io.lifeline.domain.job.hang;

import io.lifeline.domain.event.TrainerData.StackFrame;
import io.lifeline.domain.event.TrainerData.StackThread;
import io.lifeline.domain.event.TrainerData.Stacks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The newest stack capture of a job: every rank's stacks for one request, grouped by what the training thread was
 * doing, so that a thousand ranks waiting in the same collective read as one group and the rank that is elsewhere
 * stands out. A capture for a new request replaces the previous one. Bounded: at most {@link #MAX_GROUPS} groups
 * (ranks beyond them are counted, not kept) and one representative stack per group.
 */
public final class StackCapture {

    static final int MAX_GROUPS = 64;
    static final int MAX_NODES_SHOWN = 64;
    private static final Set<String> COLLECTIVES = Set.of(
            "all_reduce",
            "barrier",
            "broadcast",
            "all_gather",
            "all_gather_into_tensor",
            "reduce_scatter",
            "reduce_scatter_tensor",
            "all_to_all",
            "all_to_all_single",
            "gather",
            "scatter",
            "reduce",
            "send",
            "recv",
            "monitored_barrier",
            "wait",
            "_wait",
            "synchronize");

    private String requestId;
    private Instant firstAt;
    private Instant lastAt;
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final TreeSet<Integer> ranks = new TreeSet<>();
    private int overflow;

    private static final class Group {
        final Stacks sample;
        final boolean inCollective;
        final TreeSet<Integer> ranks = new TreeSet<>();
        final TreeSet<String> nodes = new TreeSet<>();

        Group(Stacks sample, boolean inCollective) {
            this.sample = sample;
            this.inCollective = inCollective;
        }
    }

    /** Adds one rank's stacks received at {@code at}; a new request starts a new capture. */
    public void add(Instant at, Stacks s) {
        if (!s.requestId().equals(requestId)) {
            requestId = s.requestId();
            firstAt = at;
            groups.clear();
            ranks.clear();
            overflow = 0;
        }
        lastAt = at;
        if (!ranks.add(s.rank())) {
            // A rank answering twice (a redelivered request): its first answer stands.
            return;
        }
        String sig = signature(s);
        Group g = groups.get(sig);
        if (g == null) {
            if (groups.size() >= MAX_GROUPS) {
                overflow++;
                return;
            }
            g = new Group(s, inCollective(s));
            groups.put(sig, g);
        }
        g.ranks.add(s.rank());
        if (s.node() != null && g.nodes.size() < MAX_NODES_SHOWN) {
            g.nodes.add(s.node());
        }
    }

    /** Whether a capture was received. */
    public boolean empty() {
        return requestId == null;
    }

    public String requestId() {
        return requestId;
    }

    /**
     * The capture as groups. Odd ones out: the groups whose training thread is not in a collective while others
     * are (they keep the rest waiting); without that difference, the groups smaller than the largest.
     *
     * @param expected  ranks the job has (its world size), or 0 when unknown
     */
    public StackCaptureView view(int expected) {
        boolean someWait = groups.values().stream().anyMatch(g -> g.inCollective);
        boolean someNot = groups.values().stream().anyMatch(g -> !g.inCollective);
        int largest =
                groups.values().stream().mapToInt(g -> g.ranks.size()).max().orElse(0);
        boolean sizesDiffer = groups.values().stream().anyMatch(g -> g.ranks.size() < largest);
        List<StackCaptureView.Group> out = new ArrayList<>();
        for (Map.Entry<String, Group> e : groups.entrySet()) {
            Group g = e.getValue();
            boolean odd = groups.size() > 1
                    && (someWait && someNot ? !g.inCollective : sizesDiffer && g.ranks.size() < largest);
            out.add(new StackCaptureView.Group(
                    Integer.toHexString(e.getKey().hashCode()),
                    List.copyOf(g.ranks),
                    List.copyOf(g.nodes),
                    odd,
                    g.inCollective,
                    g.sample.via(),
                    g.sample.phase(),
                    g.sample.step(),
                    g.sample.threads(),
                    g.sample.text()));
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < expected && missing.size() < 1024; r++) {
            if (!ranks.contains(r)) {
                missing.add(r);
            }
        }
        return new StackCaptureView(requestId, firstAt, lastAt, ranks.size(), expected, out, missing, overflow);
    }

    /** What groups ranks: the training thread's frames (all non-agent threads when none is marked main). */
    static String signature(Stacks s) {
        StringBuilder b = new StringBuilder();
        List<StackThread> main = s.threads().stream().filter(StackThread::main).toList();
        List<StackThread> use =
                main.isEmpty() ? s.threads().stream().filter(t -> !t.agent()).toList() : main;
        for (StackThread t : use) {
            b.append('|');
            for (StackFrame f : t.frames()) {
                b.append(f.file())
                        .append(':')
                        .append(f.line())
                        .append(':')
                        .append(f.function())
                        .append(';');
            }
        }
        if (use.isEmpty() && s.text() != null) {
            b.append(s.text());
        }
        return b.toString();
    }

    /** Whether the training thread's innermost frames are in a collective of torch.distributed. */
    static boolean inCollective(Stacks s) {
        for (StackThread t : s.threads()) {
            if (!t.main()) {
                continue;
            }
            for (StackFrame f : t.frames()) {
                String fn = f.function();
                // Python 3.11 names functions by their qualified name (Work.wait): the last part is the function.
                fn = fn.substring(fn.lastIndexOf('.') + 1);
                if (COLLECTIVES.contains(fn)
                        && (f.file().contains("distributed") || f.file().contains("c10d"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
