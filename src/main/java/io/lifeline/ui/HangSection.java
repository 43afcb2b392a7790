package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.details.Details;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import io.lifeline.action.StackCaptureRequests;
import io.lifeline.domain.event.JobData.HangSuspect;
import io.lifeline.domain.event.TrainerData.StackFrame;
import io.lifeline.domain.event.TrainerData.StackThread;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.hang.StackCaptureView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.security.identity.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The job page's "Hang" section: whether the job is hung now (the verdict: stall against its threshold, the
 * suspected ranks with node, GPU and why, the silent ranks, the evidence), its newest hang incident, and the newest
 * stack capture with identical stacks grouped, each group folded (its ranks, nodes, whether it is the odd one out,
 * its frames innermost last). Operators of the job's namespace ask the agents for stacks from here, as
 * {@code POST .../stacks} and {@code lifelinectl stacks --capture} do.
 */
final class HangSection extends Div {

    private static final int MAX_RANKS_LISTED = 64;

    private final StackCaptureRequests requests;
    private final Div verdict = new Div();
    private final Div incident = new Div();
    private final Div stacks = new Div();
    private final Div bar = new Div();
    private Shown shown;

    /** What was last drawn: the verdict without its ticking counters, so a stall that grows redraws nothing. */
    private record Shown(
            String job, Object verdict, IncidentView incident, StackCaptureView stacks, boolean operator) {}

    HangSection(StackCaptureRequests requests) {
        this.requests = requests;
        setId("job-hang");
        verdict.setId("job-hang-verdict");
        incident.setId("job-hang-incident");
        stacks.setId("job-hang-stacks");
        bar.setId("job-hang-bar");
        add(verdict, incident, bar, stacks);
    }

    /** Shows the hang facts of {@code job} ({@code namespace/name}). */
    void show(String job, String namespace, HangVerdict v, List<IncidentView> incidents, StackCaptureView s) {
        IncidentView hang = newestHang(incidents);
        boolean operator = UiSession.caller().has(Role.OPERATOR) && UiSession.mayActOnJob(namespace);
        Shown now = new Shown(job, stable(v), hang, s, operator);
        if (now.equals(shown)) {
            return;
        }
        shown = now;
        renderVerdict(v);
        renderIncident(hang);
        renderBar(job, operator);
        renderStacks(s);
    }

    private static Object stable(HangVerdict v) {
        return v == null
                ? null
                : List.of(
                        v.state(),
                        Objects.toString(v.kind()),
                        Objects.toString(v.phase()),
                        v.suspects(),
                        v.silentRanks(),
                        v.evidence(),
                        // whole minutes: the stall is shown, but need not redraw the page every second
                        (long) (v.stalledSeconds() / 60));
    }

    /** The newest incident of cause hang, or null. */
    static IncidentView newestHang(List<IncidentView> incidents) {
        for (int i = incidents.size() - 1; i >= 0; i--) {
            if (incidents.get(i).cause() == IncidentCause.HANG) {
                return incidents.get(i);
            }
        }
        return null;
    }

    private void renderVerdict(HangVerdict v) {
        verdict.removeAll();
        if (v == null) {
            verdict.add(Ui.empty("Not judged yet."));
            return;
        }
        List<String> lines = verdictLines(v);
        verdict.add(new Div(Ui.badge(badge(v), theme(v)), new Span(" " + lines.get(0))));
        if (lines.size() > 1) {
            UnorderedList l = new UnorderedList();
            l.setId("job-hang-facts");
            for (String line : lines.subList(1, lines.size())) {
                l.add(new ListItem(line));
            }
            verdict.add(l);
        }
    }

    private static String badge(HangVerdict v) {
        return switch (v.state()) {
            case HangVerdict.SUSPECTED -> "! Suspected hung" + (v.kind() == null ? "" : " (" + v.kind() + ")");
            case HangVerdict.OK -> "Not hung";
            case HangVerdict.UNKNOWN -> "Unknown";
            default -> "Not judged";
        };
    }

    private static String theme(HangVerdict v) {
        return switch (v.state()) {
            case HangVerdict.SUSPECTED -> "error";
            case HangVerdict.OK -> "success";
            default -> "contrast";
        };
    }

    /**
     * What the verdict says: its sentence first, then the stall against the threshold, the suspects, the silent ranks
     * and the evidence, one line each (plain text, for tests and screen readers).
     */
    static List<String> verdictLines(HangVerdict v) {
        List<String> out = new ArrayList<>();
        out.add(v.detail() == null ? v.state() : v.detail());
        if (HangVerdict.NOT_APPLICABLE.equals(v.state()) || v.ranksReporting() == 0 && v.thresholdSeconds() == 0) {
            return out;
        }
        out.add("No progress for " + Format.seconds(v.stalledSeconds()) + " of a threshold of "
                + Format.seconds(v.thresholdSeconds())
                + (v.basis() == null ? "" : " (" + v.basis() + ")")
                + (v.phase() == null ? "" : "; phase " + v.phase())
                + "; " + v.ranksReporting() + " rank" + (v.ranksReporting() == 1 ? "" : "s") + " reporting"
                + (v.since() == null ? "" : "; last progress " + Format.time(v.since(), UiSession.zone())));
        for (HangSuspect s : v.suspects()) {
            out.add(suspect(s));
        }
        if (!v.silentRanks().isEmpty()) {
            out.add("Silent (no heartbeat any more): " + ranks(v.silentRanks()));
        }
        for (String e : v.evidence()) {
            out.add("Evidence: " + e);
        }
        return out;
    }

    static String suspect(HangSuspect s) {
        return String.format(
                Locale.ENGLISH,
                "Suspect: rank %d on %s, GPU %s%s: %s",
                s.rank(),
                s.node() == null ? "an unknown node" : s.node(),
                s.gpu() == null ? "?" : s.gpu(),
                s.lastStep() == null ? "" : ", at step " + s.lastStep(),
                s.why());
    }

    private void renderIncident(IncidentView i) {
        incident.removeAll();
        if (i == null) {
            return;
        }
        boolean open = i.closedAt() == null;
        Div line = new Div(
                Ui.badge(open ? "! Hung: incident open" : "Hang " + Format.words(i.outcome()), open ? "error" : ""),
                new Span(" " + incidentLine(i)));
        incident.add(line);
    }

    /** The newest hang incident in one line. */
    static String incidentLine(IncidentView i) {
        return i.id() + ", detected "
                + Format.time(i.stoppedAt() != null ? i.stoppedAt() : i.openedAt(), UiSession.zone())
                + (i.closedAt() == null ? "" : ", closed " + Format.time(i.closedAt(), UiSession.zone()))
                + "; hung " + Format.duration(i.hangMillis())
                + (i.nodes().isEmpty() ? "" : "; nodes " + String.join(", ", i.nodes()))
                + (i.causeDetail() == null ? "" : "; " + i.causeDetail());
    }

    private void renderBar(String job, boolean operator) {
        bar.removeAll();
        if (!operator) {
            return;
        }
        Button capture = new Button("Capture stacks", e -> capture(job, e.getSource()));
        capture.setId("job-hang-capture");
        Span note = new Span(" asks every rank's agent for its Python stacks now; nothing else changes in the job");
        note.addClassNames("ll-muted");
        bar.add(capture, note);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void capture(String job, Button button) {
        UI ui = UI.getCurrent();
        button.setEnabled(false);
        requests.request(job)
                .orTimeout(40, TimeUnit.SECONDS)
                .whenComplete((r, ex) -> Ui.access(ui, () -> {
                    button.setEnabled(true);
                    if (ex != null) {
                        Notifications.error("Could not ask " + job + " for its stacks: "
                                + (ex.getCause() != null ? ex.getCause() : ex).getMessage());
                    } else if (r.isEmpty()) {
                        Notifications.error("No job " + job + " is known any more.");
                    } else if (!r.get().reached()) {
                        Notifications.error("The request reached no channel to the agents of " + job + ": "
                                + r.get().sent().failed());
                    } else {
                        Notifications.info("Asked " + job + " for its stacks ("
                                + r.get().requestId() + "); they appear here as the ranks answer.");
                    }
                }));
    }

    private void renderStacks(StackCaptureView s) {
        stacks.removeAll();
        if (s == null) {
            stacks.add(Ui.empty("No stacks captured yet: they are taken when a hang is suspected, or on request."));
            return;
        }
        Div head = new Div(new Span(stacksHeadline(s)));
        head.setId("job-hang-stacks-head");
        stacks.add(head);
        for (StackCaptureView.Group g : s.groups()) {
            stacks.add(group(g, s.groups().size() > 1 && g.oddOneOut()));
        }
    }

    /** The capture in one line: which request, how many ranks answered of how many, which are missing. */
    static String stacksHeadline(StackCaptureView s) {
        return "Newest stacks (" + s.requestId() + "), " + s.ranksReported()
                + (s.ranksExpected() > 0 ? " of " + s.ranksExpected() : "") + " rank"
                + (s.ranksReported() == 1 ? "" : "s") + " answered"
                + (s.lastAt() == null ? "" : ", last at " + Format.time(s.lastAt(), UiSession.zone()))
                + "; " + s.groups().size() + " distinct stack" + (s.groups().size() == 1 ? "" : "s")
                + (s.missingRanks().isEmpty() ? "" : "; not answered: " + ranks(s.missingRanks()))
                + (s.ranksNotGrouped() == 0 ? "" : "; " + s.ranksNotGrouped() + " more ranks counted, not grouped");
    }

    private static Details group(StackCaptureView.Group g, boolean odd) {
        Div body = new Div();
        Div where = new Div(new Span("Ranks " + ranks(g.ranks())
                + (g.nodes().isEmpty() ? "" : " on " + String.join(", ", g.nodes()))
                + (g.phase() == null ? "" : "; phase " + g.phase())
                + (g.step() == null ? "" : "; step " + g.step())
                + "; read via " + g.via()));
        where.addClassNames("ll-muted");
        body.add(where);
        for (StackThread t : g.threads()) {
            Div name = new Div(new Span(threadName(t)));
            name.addClassNames("ll-stack-thread");
            Pre frames = new Pre(frames(t));
            frames.addClassNames("ll-stack");
            body.add(name, frames);
        }
        if (g.text() != null) {
            Pre text = new Pre(g.text());
            text.addClassNames("ll-stack");
            body.add(text);
        }
        Span summary = new Span(groupSummary(g));
        Details d = new Details(summary, body);
        d.addClassNames("ll-stack-group");
        if (odd) {
            summary.add(new Span(" "), Ui.badge("odd one out", "error"));
            d.addClassNames("ll-odd-one-out");
        }
        // The odd group is what an operator opens first; the crowd waiting in the collective stays folded.
        d.setOpened(odd);
        return d;
    }

    /** A group's folded line: how many ranks, where, and where its training thread stands. */
    static String groupSummary(StackCaptureView.Group g) {
        StackThread main = g.threads().stream()
                .filter(StackThread::main)
                .findFirst()
                .orElse(g.threads().isEmpty() ? null : g.threads().get(0));
        String top = main == null || main.frames().isEmpty()
                ? "no frames"
                : frame(main.frames().get(main.frames().size() - 1));
        return g.ranks().size() + " rank" + (g.ranks().size() == 1 ? "" : "s") + " (" + ranks(g.ranks()) + ")"
                + (g.inCollective() ? ", waiting in a collective" : "") + ": " + top;
    }

    private static String threadName(StackThread t) {
        return "Thread " + t.name() + (t.main() ? " (training)" : "") + (t.agent() ? " (agent)" : "");
    }

    /** A thread's frames, outermost first and innermost last, as Python prints them. */
    static String frames(StackThread t) {
        StringBuilder b = new StringBuilder();
        for (StackFrame f : t.frames()) {
            b.append(frame(f)).append('\n');
        }
        return b.toString();
    }

    private static String frame(StackFrame f) {
        return f.file() + ":" + f.line() + " in " + f.function();
    }

    /** Ranks as a compact list: runs of consecutive ranks folded ({@code 0-3, 7}), at most so many shown. */
    static String ranks(List<Integer> ranks) {
        List<Integer> sorted = ranks.stream().sorted().distinct().toList();
        StringBuilder b = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < sorted.size() && shown < MAX_RANKS_LISTED; ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(sorted.get(i));
            if (j > i) {
                b.append(j == i + 1 ? ", " : "-").append(sorted.get(j));
            }
            shown++;
            i = j + 1;
            if (shown == MAX_RANKS_LISTED && i < sorted.size()) {
                b.append(", … (").append(sorted.size()).append(" in all)");
            }
        }
        return b.toString();
    }
}
