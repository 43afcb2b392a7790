package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code describe job|node}: everything about one, for people; {@code -o json|yaml} gives the server's detail. */
@Command(
        name = "describe",
        description = "Show one job or node in detail.",
        subcommands = {DescribeCommand.JobCmd.class, DescribeCommand.NodeCmd.class})
final class DescribeCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("describe what? job JOB or node NODE");
    }

    /** {@code describe job}. */
    @Command(
            name = "job",
            aliases = {"jobs"},
            description = "A job: state, world size and elastic bounds, checkpoint "
                    + "freshness, goodput, placement, incidents, checkpoints.")
    static final class JobCmd extends Base {
        @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
        String name;

        @Override
        int run() {
            String job = job(name);
            JsonNode d = api().get(Jobs.path(job));
            Out out = out();
            if (out.structured()) {
                out.document(d);
                return Exit.OK;
            }
            if (out.names()) {
                out.line("job/" + job);
                return Exit.OK;
            }
            JsonNode incidents = api().get(Jobs.path(job, "incidents"));
            JsonNode checkpoints = api().get(Jobs.path(job, "checkpoints"));
            print(out, d, incidents, checkpoints);
            return Exit.OK;
        }

        static void print(Out out, JsonNode d, JsonNode incidents, JsonNode checkpoints) {
            JsonNode s = d.get("summary");
            JsonNode el = d.get("elastic");
            Describer f = new Describer(out, 0);
            f.field("Name", Json.text(s, "name"));
            f.field(
                    "State",
                    out.state(Formats.wire(Json.text(s, "state"))) + " (since " + out.time(Json.text(s, "stateSince"))
                            + ")");
            f.field("Owner", Formats.or(Json.text(d, "owner")));
            f.field("Priority class", Formats.or(Json.text(d, "priorityClass")));
            f.field("Pool", Formats.or(Json.text(s, "pool")) + " (" + Formats.wire(Json.text(s, "capacityType")) + ")");
            String bounds = el == null
                    ? "not elastic"
                    : "elastic " + Formats.num(el, "minNodes") + ".." + Formats.num(el, "maxNodes") + " nodes x "
                            + Formats.num(el, "procsPerNode") + " procs";
            f.field(
                    "World size",
                    Formats.num(s, "worldSize") + " ranks on " + Formats.num(s, "nodes") + " nodes (" + bounds + ")");
            if (Json.has(el, "rdzvBackend") || Json.has(el, "autoscaling")) {
                f.field(
                        "Elastic",
                        (Json.has(el, "rdzvBackend") ? "rendezvous " + Json.text(el, "rdzvBackend") : "")
                                + (Json.has(el, "rdzvBackend") && Json.has(el, "autoscaling") ? ", " : "")
                                + (Json.has(el, "autoscaling") ? "scaled on " + Json.text(el, "autoscaling") : ""));
            }
            f.field("GPUs held", Formats.num(s, "gpusHeld") + " (" + Formats.num(d, "gpusPerNode") + " per node)");
            String max = Json.text(s, "maxRestarts");
            f.field(
                    "Restarts",
                    Formats.num(s, "restarts") + (max == null ? "" : " of " + max)
                            + (s.path("restartBudgetExhausted").asBoolean()
                                    ? out.term().red(" (budget spent)")
                                    : "")
                            + ", agent restarts " + Formats.num(d, "agentRestarts"));
            f.field("Interruptions", Formats.num(s, "interruptions") + causes(d.get("interruptionsByCause")));
            String rate = Json.has(d, "tokensPerSecond")
                    ? Formats.num(d, "tokensPerSecond") + " tokens/s"
                    : Json.has(d, "samplesPerSecond") ? Formats.num(d, "samplesPerSecond") + " samples/s" : null;
            f.field(
                    "Last step",
                    Formats.num(s, "lastStep") + " (" + out.time(Json.text(s, "lastProgressAt")) + ")"
                            + (rate == null ? "" : ", " + rate));
            f.field("Submitted", out.time(Json.text(s, "submittedAt")));
            if (Json.has(s, "finishedAt")) {
                f.field(
                        "Finished",
                        out.time(Json.text(s, "finishedAt")) + " " + Formats.or(Json.text(d, "finishReason")));
            }
            freshness(out, d.get("freshness"), d);
            goodput(out, d.get("goodput"));
            placement(out, d.get("membership"));
            incidents(out, incidents);
            checkpoints(out, checkpoints);
        }

        private static String causes(JsonNode byCause) {
            if (byCause == null || !byCause.isObject() || byCause.isEmpty()) {
                return "";
            }
            Map<String, String> m = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : byCause.properties()) {
                m.put(Formats.wire(e.getKey()), e.getValue().asText());
            }
            StringBuilder b = new StringBuilder(" (");
            m.forEach((k, v) ->
                    b.append(b.length() > 2 ? ", " : "").append(k).append(' ').append(v));
            return b.append(')').toString();
        }

        static void freshness(Out out, JsonNode fr, JsonNode d) {
            if (fr == null) {
                return;
            }
            out.line("Checkpoint freshness:");
            Describer f = new Describer(out, 2);
            String counted = Json.text(fr, "checkpointId");
            String anywhere = Json.text(fr, "newestCheckpointId");
            String node = Json.text(fr, "survivingNode");
            String newest = counted != null
                    ? counted + " at step " + Formats.num(fr, "step") + ", " + out.time(Json.text(fr, "completedAt"))
                    : anywhere == null
                            ? "none yet"
                            : "none that survives the loss of " + (node == null ? "a node" : "node " + node)
                                    + " (newest: " + anywhere + ", " + Formats.or(Json.text(fr, "newestDurability"))
                                    + ")";
            f.field("Newest good", newest);
            boolean breached = fr.path("breached").asBoolean();
            // Without a checkpoint that counts, the age runs from the first training step: say so, or "none yet"
            // beside "9s ok" reads as a contradiction.
            String age = counted != null || !Json.has(fr, "ageMillis")
                    ? Formats.millis(fr, "ageMillis")
                    : "no checkpoint; " + Formats.millis(fr, "ageMillis") + " of training unprotected";
            f.field(
                    "Age",
                    age + " (objective " + Formats.millis(fr, "objectiveMillis") + ") "
                            + (breached
                                    ? out.term().red("BREACHED")
                                    : out.term().green("ok")));
            f.field("Steps since", Formats.num(fr, "stepsSince"));
            f.field("Work at risk", Formats.hours(fr, "workAtRiskGpuHours") + " GPU-hours");
            if (d != null) {
                f.field(
                        "Interval",
                        Json.has(d, "checkpointIntervalSeconds")
                                ? d.get("checkpointIntervalSeconds").asText() + "s"
                                : "-");
            }
            f.field("Verified restores", fr.path("verifies").asBoolean() ? "yes" : "no");
        }

        static void goodput(Out out, JsonNode g) {
            if (g == null) {
                return;
            }
            out.line("Goodput:");
            Describer f = new Describer(out, 2);
            f.field("ETTR", Formats.percent(g, "ettr") + " (of wall time " + Formats.percent(g, "ettrOfWall") + ")");
            f.field("Wall", Formats.millis(g, "wallMillis"));
            f.field("Productive", Formats.millis(g, "productiveMillis"));
            f.field("Checkpointing", Formats.millis(g, "checkpointMillis"));
            f.field("Lost rework", Formats.millis(g, "lostReworkMillis"));
            f.field(
                    "Recovery",
                    Formats.millis(g, "recoveryMillis") + " (detect " + Formats.millis(g, "recoveryDetectionMillis")
                            + ", restart " + Formats.millis(g, "recoveryRestartMillis") + ", load "
                            + Formats.millis(g, "recoveryLoadMillis")
                            + ")");
            f.field("Rescaling", Formats.millis(g, "rescaleMillis"));
            f.field("Start-up", Formats.millis(g, "startupMillis"));
            f.field("Waiting", Formats.millis(g, "waitingMillis"));
            f.field(
                    "GPU-hours",
                    "lost " + Formats.hours(g, "lostGpuHours") + " of " + Formats.hours(g, "heldGpuHours") + " held");
        }

        private static void placement(Out out, JsonNode m) {
            JsonNode placement = m == null ? null : m.get("placement");
            if (placement == null || placement.isEmpty()) {
                return;
            }
            out.line("Placement:");
            Table t = new Table().column("  node").number("first rank").number("ranks");
            for (JsonNode p : placement) {
                t.row("  " + Json.text(p, "node"), Formats.num(p, "firstRank"), Formats.num(p, "rankCount"));
            }
            out.table(t);
            JsonNode lost = m.get("lostNodes");
            if (lost != null && !lost.isEmpty()) {
                out.line("  Lost nodes: " + Formats.list(lost));
            }
        }

        private static void incidents(Out out, JsonNode incidents) {
            out.line("Incidents:");
            if (incidents == null || incidents.isEmpty()) {
                out.line("  none");
                return;
            }
            Table t = new Table()
                    .column("  id")
                    .column("cause")
                    .column("outcome", false, false, out::state)
                    .column("opened")
                    .number("downtime")
                    .number("lost gpu-h")
                    .flexible("detail");
            List<JsonNode> last = new java.util.ArrayList<>();
            incidents.forEach(last::add);
            for (JsonNode i : last.subList(Math.max(0, last.size() - 10), last.size())) {
                t.row(
                        "  " + Json.text(i, "id"),
                        Formats.wire(Json.text(i, "cause")),
                        Formats.wire(Json.text(i, "outcome")),
                        out.time(Json.text(i, "openedAt")),
                        Formats.millis(i, "downtimeMillis"),
                        Formats.hours(i, "lostGpuHours"),
                        Formats.or(Json.text(i, "causeDetail")));
            }
            out.table(t);
        }

        private static void checkpoints(Out out, JsonNode history) {
            JsonNode list = history == null ? null : history.get("checkpoints");
            out.line("Checkpoints:");
            if (list == null || list.isEmpty()) {
                out.line("  none yet");
                return;
            }
            Table t = new Table()
                    .column("  id")
                    .number("step")
                    .column("status", false, false, out::state)
                    .column("completed")
                    .number("took")
                    .number("blocking")
                    .flexible("uri");
            List<JsonNode> all = Base.items(history, "checkpoints");
            for (JsonNode c : all.subList(Math.max(0, all.size() - 10), all.size())) {
                t.row(
                        "  " + Json.text(c, "id"),
                        Formats.num(c, "step"),
                        Formats.wire(Json.text(c, "status")),
                        out.time(Json.text(c, "completedAt")),
                        Formats.millis(c, "durationMillis"),
                        Formats.millis(c, "blockingMillis"),
                        Formats.or(Json.text(c, "uri")));
            }
            out.table(t);
        }
    }

    /** {@code describe node}. */
    @Command(
            name = "node",
            aliases = {"nodes"},
            description = "A node: facts, state, cordon, notice, GPU health, XID " + "history, the pods on its GPUs.")
    static final class NodeCmd extends Base {
        @Parameters(paramLabel = "NODE")
        String name;

        @Override
        int run() {
            JsonNode n = api().get(Api.path("nodes", name));
            Out out = out();
            if (out.structured()) {
                out.document(n);
                return Exit.OK;
            }
            if (out.names()) {
                out.line("node/" + name);
                return Exit.OK;
            }
            JsonNode facts = n.get("facts");
            Describer f = new Describer(out, 0);
            f.field("Name", Json.text(n, "name"));
            f.field(
                    "Pool",
                    Formats.or(Json.text(facts, "pool")) + " (" + Formats.wire(Json.text(facts, "capacityType")) + ")");
            f.field("Zone", Formats.or(Json.text(facts, "zone")));
            f.field("Instance type", Formats.or(Json.text(facts, "instanceType")));
            f.field(
                    "State",
                    out.state(Formats.wire(Json.text(n, "state"))) + " (since " + out.time(Json.text(n, "stateSince"))
                            + ")");
            f.field(
                    "Cordoned",
                    (n.path("cordoned").asBoolean() ? out.term().yellow("yes") : "no")
                            + (Json.has(n, "cordonSince")
                                    ? " (changed " + out.time(Json.text(n, "cordonSince")) + ")"
                                    : ""));
            JsonNode notice = n.get("notice");
            f.field(
                    "Interruption notice",
                    notice == null || notice.isNull()
                            ? "none"
                            : Formats.wire(Json.text(notice, "kind")) + " from "
                                    + Formats.or(Json.text(notice, "provider")) + ", deadline "
                                    + out.time(Json.text(notice, "deadline"))
                                    + (Json.has(notice, "windowEnd")
                                            ? ", back by " + out.time(Json.text(notice, "windowEnd"))
                                            : "")
                                    + (n.path("noticeActive").asBoolean()
                                            ? out.term().red(" (active)")
                                            : notice.path("expired").asBoolean() ? " (expired)" : " (past)"));
            // A terminated node's GPUs are gone: its last verdict is no health, and they have none.
            boolean gone = "terminated".equalsIgnoreCase(Formats.wire(Json.text(n, "state")));
            f.field(
                    "Health",
                    gone ? "- (terminated: its GPUs are gone)" : out.state(Formats.wire(Json.text(n, "health"))));
            JsonNode lemon = n.get("lemon");
            f.field(
                    "Interruptions (7 d)",
                    Formats.num(lemon, "interruptions")
                            + (Json.has(lemon, "lastInterruption")
                                    ? ", last " + out.time(Json.text(lemon, "lastInterruption"))
                                    : ""));
            out.line("GPUs:");
            Table t = new Table()
                    .number("  gpu")
                    .flexible("model")
                    .column("health", false, false, out::state)
                    .number("util%")
                    .number("temp")
                    .number("power")
                    .number("xid")
                    .flexible("pod")
                    .flexible("reason");
            for (JsonNode g : Base.items(n, "gpus")) {
                String pod = Json.text(g, "pod") == null
                        ? "-"
                        : Formats.or(Json.text(g, "namespace")) + "/" + Json.text(g, "pod");
                String health = Json.text(g, "health");
                t.row(
                        "  " + Formats.num(g, "index"),
                        Formats.or(Json.text(g, "model")),
                        health == null ? "gone" : Formats.wire(health),
                        Formats.num(g, "utilizationPercent"),
                        Formats.num(g, "temperatureCelsius"),
                        Formats.num(g, "powerWatts"),
                        Formats.num(g, "lastXid"),
                        pod,
                        Formats.or(Json.text(g, "reason")));
            }
            long count = n.path("gpuCount").asLong();
            out.table(t, count > 0 ? "  none reporting yet (" + count + " on the node)" : "  none");
            out.line("XID history:");
            Table x = new Table()
                    .column("  time")
                    .number("gpu")
                    .number("xid")
                    .flexible("description")
                    .column("action")
                    .column("health", false, false, out::state);
            for (JsonNode e : Base.items(n, "xidHistory")) {
                x.row(
                        "  " + out.time(Json.text(e, "time")),
                        Formats.num(e, "gpuIndex"),
                        Formats.num(e, "xid"),
                        Formats.or(Json.text(e, "description")),
                        Formats.wire(Json.text(e, "action")),
                        Formats.wire(Json.text(e, "health")));
            }
            out.table(x, "  none");
            return Exit.OK;
        }
    }
}
