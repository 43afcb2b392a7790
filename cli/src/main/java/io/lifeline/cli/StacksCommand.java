package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stacks JOB}: the newest capture of a job's Python stacks, ranks with the same stacks grouped together so that
 * the rank stuck somewhere else stands out; with {@code --capture}, asks the trainers for a capture first and waits
 * for their answers.
 */
@Command(
        name = "stacks",
        description = "A job's newest stack capture: the ranks grouped by where their threads are, the odd "
                + "group(s) out marked, each thread's frames innermost last. --capture asks the trainers for one now.")
final class StacksCommand extends Base {

    @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
    String name;

    @Option(
            names = "--capture",
            description = "Ask every rank for its stacks now (operator), then wait for their answers and print them.")
    boolean capture;

    @Option(
            names = "--wait",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "With --capture: wait at most this long for every rank to answer (default: ${DEFAULT-VALUE}; "
                    + "5m works too).")
    String await;

    @Option(
            names = "--interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "With --capture: how often to ask whether the answers are in (default: ${DEFAULT-VALUE}).")
    String interval;

    @Override
    int run() {
        String job = job(name);
        Out out = out();
        if (!capture) {
            JsonNode c = newest(job);
            if (c == null) {
                throw CliException.notFound("no stacks captured for " + job + " yet; capture with: lifelinectl stacks "
                        + job + " --capture");
            }
            show(out, job, c);
            return Exit.OK;
        }
        Duration wait = Times.parseDuration(await);
        long every = Math.max(100, Times.parseDuration(interval).toMillis());
        // An empty object rather than no body: the request is JSON like every other POST of the API.
        JsonNode accepted =
                api().post(Jobs.path(job, "stacks"), Json.object(), null).body();
        String requestId = Json.text(accepted, "requestId");
        if (requestId == null) {
            throw new CliException(Exit.FAILED, "the server accepted the capture but did not say its requestId");
        }
        if (!out.structured()) {
            out.note("Capture " + requestId + " requested; waiting up to " + Times.age(wait) + " for every rank.");
        }
        long deadline = System.nanoTime() + wait.toNanos();
        JsonNode mine = null;
        while (true) {
            JsonNode c = newest(job);
            if (c != null && requestId.equals(Json.text(c, "requestId"))) {
                mine = c;
                if (complete(c)) {
                    break;
                }
            }
            if (System.nanoTime() + every * 1_000_000L > deadline) {
                break;
            }
            sleep(every);
        }
        if (mine == null) {
            throw new CliException(
                    Exit.FAILED,
                    "no rank answered capture " + requestId + " within " + Times.age(wait)
                            + " (are the trainers running with the agent?); its answers, if they come later, show "
                            + "with: lifelinectl stacks " + job);
        }
        show(out, job, mine);
        if (!complete(mine)) {
            out.note(Formats.num(mine, "ranksReported") + " of " + Formats.num(mine, "ranksExpected")
                    + " ranks answered within " + Times.age(wait) + "; missing: " + ranks(mine.get("missingRanks"))
                    + " (a process frozen in a C call cannot answer; SIGUSR2 makes it dump its stacks to a file on its "
                    + "node)");
            return Exit.FAILED;
        }
        return Exit.OK;
    }

    /** The newest capture, or null when there is none yet (a 404). */
    private JsonNode newest(String job) {
        try {
            return api().get(Jobs.path(job, "stacks"));
        } catch (ApiException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Every expected rank answered. */
    static boolean complete(JsonNode c) {
        JsonNode missing = c.get("missingRanks");
        if (missing != null && missing.isArray() && !missing.isEmpty()) {
            return false;
        }
        if (c.hasNonNull("ranksExpected")) {
            return c.path("ranksReported").asInt() >= c.get("ranksExpected").asInt();
        }
        return c.path("ranksReported").asInt() > 0;
    }

    private static void show(Out out, String job, JsonNode c) {
        if (out.structured()) {
            out.document(c);
        } else {
            print(out, job, c);
        }
    }

    /** The capture as text: its header, then each group with its ranks, nodes and threads. */
    static void print(Out out, String job, JsonNode c) {
        Describer d = new Describer(out, 0);
        d.field("Job", job);
        d.field(
                "Capture",
                Formats.or(Table.printable(String.valueOf(Json.text(c, "requestId")))) + ", requested "
                        + out.time(Json.text(c, "requestedAt")));
        d.field(
                "Ranks",
                Formats.num(c, "ranksReported") + " of " + Formats.num(c, "ranksExpected") + " reported"
                        + (complete(c) ? "" : ", missing " + ranks(c.get("missingRanks"))));
        List<JsonNode> groups = Base.items(c, "groups");
        int n = 0;
        for (JsonNode g : groups) {
            n++;
            out.line("");
            boolean odd = g.path("oddOneOut").asBoolean();
            JsonNode rs = g.get("ranks");
            int count = rs != null && rs.isArray() ? rs.size() : 0;
            String header = "Group " + n + " of " + groups.size() + ": " + (count == 1 ? "rank " : "ranks ") + ranks(rs)
                    + " on " + Table.printable(Formats.list(g.get("nodes")));
            out.line(
                    odd
                            ? out.term().bold(header) + "   " + out.term().red("<< odd one out")
                            : out.term().bold(header));
            if (out.wide() && Json.has(g, "signature")) {
                out.line("  signature " + Table.printable(Json.text(g, "signature")));
            }
            for (JsonNode t : Base.items(g, "threads")) {
                thread(out, t);
            }
        }
        if (groups.isEmpty()) {
            out.line("");
            out.line("No stacks in this capture.");
        }
    }

    private static void thread(Out out, JsonNode t) {
        List<String> marks = new ArrayList<>();
        if (t.path("main").asBoolean()) {
            marks.add("main");
        }
        if (t.path("agent").asBoolean()) {
            marks.add("Lifeline agent");
        }
        out.line("  Thread " + Table.printable(Formats.or(Json.text(t, "name")))
                + (marks.isEmpty() ? "" : " (" + String.join(", ", marks) + ")"));
        List<JsonNode> frames = Base.items(t, "frames");
        if (frames.isEmpty()) {
            out.line("    (no frames)");
        }
        // The wire order is outermost first, so the innermost frame (where the thread is now) comes last.
        for (JsonNode f : frames) {
            out.line("    " + Table.printable(Formats.or(Json.text(f, "file"))) + ":" + Formats.num(f, "line") + " in "
                    + Table.printable(Formats.or(Json.text(f, "function"))));
        }
    }

    /**
     * Ranks as people read them, runs folded: {@code 0-3, 5, 7}. Ranks given as objects (a rank and its node) read
     * {@code 3 (node-b)}.
     */
    static String ranks(JsonNode arr) {
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < arr.size()) {
            JsonNode r = arr.get(i);
            if (!r.isIntegralNumber()) {
                parts.add(rank(r));
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < arr.size()
                    && arr.get(j + 1).isIntegralNumber()
                    && arr.get(j + 1).asLong() == arr.get(j).asLong() + 1) {
                j++;
            }
            parts.add(
                    j == i
                            ? Long.toString(r.asLong())
                            : r.asLong() + "-" + arr.get(j).asLong());
            i = j + 1;
        }
        return String.join(", ", parts);
    }

    private static String rank(JsonNode r) {
        if (r.isObject()) {
            String node = Json.text(r, "node");
            return Formats.num(r, "rank") + (node == null ? "" : " (" + Table.printable(node) + ")");
        }
        return Table.printable(r.asText());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        }
    }
}
