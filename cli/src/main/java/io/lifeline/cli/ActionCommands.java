package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The actions: checkpoint, drain, cordon, uncordon, rescale, preempt, resume, restore, and cancel. Each shows its dry run's
 * impact and asks before acting (unless {@code --yes}), sends one idempotency key per invocation (so its retries
 * never act twice), and with {@code --wait} follows the action to its end, step by step.
 */
final class ActionCommands {

    static final List<String> TERMINAL = List.of("succeeded", "failed", "cancelled");

    private ActionCommands() {}

    /** Options every action has. */
    abstract static class ActionBase extends Base {
        @Option(names = "--dry-run", description = "Only show what it would do (its impact); change nothing.")
        boolean dryRun;

        @Option(
                names = {"-y", "--yes"},
                description = "Do not ask for confirmation.")
        boolean yes;

        @Option(
                names = "--wait",
                description = "Follow the action to its end, printing its steps; exit 1 unless it succeeds.")
        boolean await;

        @Option(
                names = "--timeout",
                paramLabel = "DURATION",
                defaultValue = "30m",
                description = "With --wait: stop following after this long (default: ${DEFAULT-VALUE}).")
        String timeout;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why: kept in the audit log.")
        String reason;

        @Option(
                names = "--idempotency-key",
                paramLabel = "KEY",
                description = "The key sent with the request (default: a new one per invocation). Repeating a key "
                        + "answers the action it first created instead of acting again.")
        String idempotencyKey;

        abstract String kind();

        abstract String target();

        private String resolved;

        /** The target, resolved once (a bare job name may need the server). */
        String resolved() {
            if (resolved == null) {
                resolved = target();
            }
            return resolved;
        }

        Map<String, Object> params() {
            return Map.of();
        }

        /** The confirmation question. */
        abstract String question();

        @Override
        int run() {
            ObjectNode req = Json.object();
            req.put("kind", kind());
            req.put("target", resolved());
            ObjectNode p = req.putObject("params");
            params().forEach((k, v) -> {
                if (v instanceof Number n) {
                    p.put(k, n.longValue());
                } else if (v instanceof Boolean b) {
                    p.put(k, b);
                } else if (v != null) {
                    p.put(k, v.toString());
                }
            });
            req.put("reason", reason == null ? "" : reason);
            Out out = out();
            if (dryRun || !yes) {
                ObjectNode dry = req.deepCopy();
                dry.put("dryRun", true);
                JsonNode impact = api().post(Api.path("actions"), dry, null).body();
                if (dryRun) {
                    if (out.structured()) {
                        out.document(impact);
                    } else {
                        out.line("Dry run of " + kind() + " " + resolved() + " (nothing was changed):");
                        ActionView.impact(out, impact.get("impact"));
                        ActionView.brake(out, impact.get("brake"));
                    }
                    return Exit.OK;
                }
                Out err = out.toErr();
                err.line("What " + kind() + " " + resolved() + " would do:");
                ActionView.impact(err, impact.get("impact"));
                ActionView.brake(err, impact.get("brake"));
                if (!term().confirm(question())) {
                    err.line("Not confirmed: nothing was done.");
                    return Exit.FAILED;
                }
            }
            String key = idempotencyKey != null ? idempotencyKey : "lifelinectl-" + UUID.randomUUID();
            Api.Answer created = api().post(Api.path("actions"), req, key);
            JsonNode action = created.body();
            if ("true".equalsIgnoreCase(created.headers().get("Idempotency-Replayed"))) {
                out.note("The key " + key + " already created this action: nothing new was requested.");
            }
            return follow(this, action, await, Times.parseDuration(timeout));
        }
    }

    /**
     * Reports a created (or cancelled) action; with {@code await} polls it once a second until it ends, printing each
     * step as it changes. Exit 0 when it succeeded (or, without waiting, was accepted), 1 otherwise.
     */
    static int follow(Base cmd, JsonNode action, boolean await, Duration timeout) {
        Out out = cmd.out();
        String id = Json.text(action, "id");
        boolean text = !out.structured() && !out.names();
        if (!await) {
            if (out.structured()) {
                out.document(action);
            } else if (out.names()) {
                out.line("action/" + id);
            } else {
                out.line("action " + id + " " + Json.text(action, "kind") + " " + Json.text(action, "target") + ": "
                        + out.state(Json.text(action, "state")));
                out.note("Follow it with: lifelinectl get actions " + id + "   (or run with --wait)");
            }
            return Exit.OK;
        }
        if (text) {
            out.line("action " + id + " " + Json.text(action, "kind") + " " + Json.text(action, "target") + ": "
                    + out.state(Json.text(action, "state")));
        }
        Thread hint = new Thread(() -> cmd.term()
                .err()
                .println("\nStopped following " + id + "; the action goes on. "
                        + "See it with: lifelinectl get actions " + id));
        Runtime.getRuntime().addShutdownHook(hint);
        Map<Integer, String> printed = new HashMap<>();
        String state = Json.text(action, "state");
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode current = action;
        while (true) {
            if (text) {
                printSteps(out, current, printed);
            }
            if (!state.equals(Json.text(current, "state")) && text) {
                out.line("state: " + out.state(Json.text(current, "state")));
            }
            state = Json.text(current, "state");
            if (TERMINAL.contains(state)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                Runtime.getRuntime().removeShutdownHook(hint);
                throw new CliException(
                        Exit.FAILED,
                        "action " + id + " is still " + state + " after " + Times.age(timeout)
                                + "; it goes on. See it with: lifelinectl get actions " + id);
            }
            sleep(1000);
            current = cmd.api().get(Api.path("actions", id));
        }
        Runtime.getRuntime().removeShutdownHook(hint);
        if (out.structured()) {
            out.document(current);
        } else if (out.names()) {
            out.line("action/" + id);
        } else {
            out.line("Outcome: " + Formats.or(Json.text(current, "outcome")));
            out.line("action " + id + " " + out.state(state));
        }
        return "succeeded".equals(state) ? Exit.OK : Exit.FAILED;
    }

    private static void printSteps(Out out, JsonNode action, Map<Integer, String> printed) {
        JsonNode steps = action.get("steps");
        if (steps == null) {
            return;
        }
        for (JsonNode s : steps) {
            int seq = s.path("seq").asInt();
            String st = Json.text(s, "state") + "|" + Json.text(s, "detail");
            if (!st.equals(printed.get(seq))) {
                printed.put(seq, st);
                out.line("  " + ActionView.step(out, s));
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        }
    }

    /** Deadline options in seconds, as the API takes them. */
    static Long seconds(String duration) {
        return duration == null ? null : Times.parseDuration(duration).getSeconds();
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return m;
    }

    /** {@code checkpoint JOB}. */
    @Command(
            name = "checkpoint",
            description = "Checkpoint a job now (checkpoint-now): command its trainers, wait for "
                    + "a checkpoint newer than the request.")
    static final class Checkpoint extends ActionBase {
        @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
        String job;

        @Option(
                names = "--deadline",
                paramLabel = "DURATION",
                description = "How long the trainers have (server default 300s).")
        String deadline;

        @Override
        String kind() {
            return "checkpoint-now";
        }

        @Override
        String target() {
            return job(job);
        }

        @Override
        Map<String, Object> params() {
            return map("deadlineSeconds", seconds(deadline));
        }

        @Override
        String question() {
            return "Checkpoint " + resolved() + " now?";
        }
    }

    /** {@code drain NODE}. */
    @Command(
            name = "drain",
            description =
                    "Drain a node: checkpoint its jobs, cordon, evict the training pods, shrink " + "elastic jobs.")
    static final class Drain extends ActionBase {
        @Parameters(paramLabel = "NODE")
        String node;

        @Option(
                names = "--deadline",
                paramLabel = "DURATION",
                description = "How long it may take (server default 600s).")
        String deadline;

        @Option(
                names = "--allow-delete",
                description = "Delete pods whose eviction a PodDisruptionBudget still refuses " + "at the deadline.")
        boolean allowDelete;

        @Override
        String kind() {
            return "drain";
        }

        @Override
        String target() {
            return node;
        }

        @Override
        Map<String, Object> params() {
            return map("deadlineSeconds", seconds(deadline), "allowDelete", allowDelete ? Boolean.TRUE : null);
        }

        @Override
        String question() {
            return "Drain node " + node + "?";
        }
    }

    /** An action on one node that takes nothing but the node: cordon and uncordon. */
    abstract static class NodeOnly extends ActionBase {
        @Parameters(paramLabel = "NODE")
        String node;

        @Override
        String target() {
            return node;
        }

        @Override
        String question() {
            String k = kind();
            return Character.toUpperCase(k.charAt(0)) + k.substring(1) + " node " + node + "?";
        }
    }

    /** {@code uncordon NODE}. */
    @Command(name = "uncordon", description = "Uncordon a node: let pods be scheduled on it again.")
    static final class Uncordon extends NodeOnly {
        @Override
        String kind() {
            return "uncordon";
        }
    }

    /** {@code cordon NODE}. */
    @Command(
            name = "cordon",
            description = "Cordon a node and nothing more: no new pods land on it; what runs there keeps running.")
    static final class Cordon extends NodeOnly {
        @Override
        String kind() {
            return "cordon";
        }
    }

    /** {@code rescale JOB --workers N}. */
    @Command(
            name = "rescale",
            description = "Rescale an elastic job to N workers (within its bounds and the pool's " + "free nodes).")
    static final class Rescale extends ActionBase {
        @Parameters(paramLabel = "JOB")
        String job;

        @Option(names = "--workers", required = true, paramLabel = "N")
        int workers;

        @Override
        String kind() {
            return "rescale";
        }

        @Override
        String target() {
            return job(job);
        }

        @Override
        Map<String, Object> params() {
            return map("workers", (long) workers);
        }

        @Override
        String question() {
            return "Rescale " + resolved() + " to " + workers + " workers?";
        }
    }

    /** {@code preempt JOB}. */
    @Command(name = "preempt", description = "Preempt a job: checkpoint it, then suspend it.")
    static final class Preempt extends ActionBase {
        @Parameters(paramLabel = "JOB")
        String job;

        @Option(
                names = "--deadline",
                paramLabel = "DURATION",
                description = "How long the checkpoint may take " + "(server default 300s).")
        String deadline;

        @Override
        String kind() {
            return "preempt";
        }

        @Override
        String target() {
            return job(job);
        }

        @Override
        Map<String, Object> params() {
            return map("deadlineSeconds", seconds(deadline));
        }

        @Override
        String question() {
            return "Preempt " + resolved() + " (checkpoint, then suspend)?";
        }
    }

    /** {@code resume JOB}. */
    @Command(name = "resume", description = "Resume a suspended job.")
    static final class Resume extends ActionBase {
        @Parameters(paramLabel = "JOB")
        String job;

        @Override
        String kind() {
            return "resume";
        }

        @Override
        String target() {
            return job(job);
        }

        @Override
        String question() {
            return "Resume " + resolved() + "?";
        }
    }

    /** {@code restore JOB [--checkpoint ID] [--allow-suspect]}. */
    @Command(
            name = "restore",
            description = "Restore a job from a checkpoint: the one named, else the newest trusted one.")
    static final class Restore extends ActionBase {
        @Parameters(paramLabel = "JOB")
        String job;

        @Option(
                names = "--checkpoint",
                paramLabel = "ID",
                description = "The checkpoint (complete or verified); default: the newest trusted one.")
        String checkpoint;

        @Option(
                names = "--allow-suspect",
                description = "Take a suspect checkpoint (saved after a NaN or a loss spike, never verified, marked).")
        boolean allowSuspect;

        @Override
        String kind() {
            return "restore";
        }

        @Override
        String target() {
            return job(job);
        }

        @Override
        Map<String, Object> params() {
            return map("checkpointId", checkpoint, "allowSuspect", allowSuspect ? "true" : null);
        }

        @Override
        String question() {
            return "Restore " + resolved() + " from "
                    + (checkpoint == null ? "its newest trusted checkpoint" : "checkpoint " + checkpoint)
                    + (allowSuspect ? " (suspect ones allowed)" : "") + "?";
        }
    }

    /** {@code cancel ACTION}. */
    @Command(
            name = "cancel",
            description = "Cancel an action: a pending one at once, a running one before its next step.")
    static final class Cancel extends Base {
        @Parameters(paramLabel = "ACTION", description = "The action's id (act-...).")
        String id;

        @Option(names = "--dry-run", description = "Only show the action that would be cancelled.")
        boolean dryRun;

        @Option(
                names = {"-y", "--yes"},
                description = "Do not ask for confirmation.")
        boolean yes;

        @Option(names = "--wait", description = "Follow the action until it has ended.")
        boolean await;

        @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30m")
        String timeout;

        @Override
        int run() {
            Out out = out();
            JsonNode a = api().get(Api.path("actions", id));
            String state = Json.text(a, "state");
            if (TERMINAL.contains(state)) {
                throw new CliException(
                        Exit.FAILED, "action " + id + " has already ended (" + state + "): nothing to cancel");
            }
            if (dryRun) {
                if (out.structured()) {
                    out.document(a);
                } else {
                    out.line("Dry run: would cancel this action (nothing was changed):");
                    ActionView.describe(out, a);
                }
                return Exit.OK;
            }
            if (!yes) {
                out.toErr()
                        .line("Action " + id + ": " + Json.text(a, "kind") + " " + Json.text(a, "target") + ", " + state
                                + ", requested by " + Json.text(a, "requestedBy"));
                if (!term().confirm("Cancel it?")) {
                    out.toErr().line("Not confirmed: nothing was done.");
                    return Exit.FAILED;
                }
            }
            JsonNode after =
                    api().post(Api.path("actions", id, "cancel"), null, null).body();
            String now = Json.text(after, "state");
            if (!await) {
                if (out.structured()) {
                    out.document(after);
                } else {
                    out.line("action " + id + ": "
                            + ("cancelled".equals(now)
                                    ? out.state(now)
                                    : "cancel requested (" + now + "); it stops before its next step"));
                }
                return "cancelled".equals(now) || !TERMINAL.contains(now) ? Exit.OK : Exit.FAILED;
            }
            int code = follow(this, after, true, Times.parseDuration(timeout));
            return code == Exit.OK
                    ? Exit.FAILED
                    : "cancelled".equals(Json.text(api().get(Api.path("actions", id)), "state"))
                            ? Exit.OK
                            : Exit.FAILED;
        }
    }
}
