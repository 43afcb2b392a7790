package io.lifeline.connector.inbound.torchelastic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * torchelastic's own event JSON, one line as its event handlers print it, into trainer events. Two shapes:
 *
 * <p><b>Agent/worker status</b> ({@code torch.distributed.elastic.events.api.Event}):
 * {@code {"name": "torchelastic.worker.status.FAILED", "source": "WORKER", "timestamp": 0, "metadata": {...}}}.
 * {@code metadata} holds {@code run_id}, {@code global_rank} (a number, or a list), {@code group_rank},
 * {@code hostname}, {@code state}, {@code raw_error} (a JSON string), {@code agent_restarts} and a nested
 * {@code metadata} that is itself a JSON string ({@code group_world_size}, {@code local_rank} as a list, ...).
 * <ul>
 *   <li>{@code agent_restarts} &gt; 0 on any event → {@code trainer.restarted} with that count (one event per count:
 *       the id is derived from it, so every later event repeating the count dedupes);</li>
 *   <li>WORKER {@code FAILED} or {@code UNHEALTHY} → {@code trainer.worker_failed} per global rank, with the
 *       error message of the worker's error file and its {@code errorCode} as exit code when present (the event
 *       has no exit code otherwise);</li>
 *   <li>AGENT {@code FAILED} (the agent itself died, for example on a signal) → {@code trainer.worker_failed} for
 *       every rank the agent hosted ({@code group_rank × procsPerNode} onward) when the job binding gives
 *       {@code procsPerNode}, else rejected ({@code agent_ranks_unknown});</li>
 *   <li>AGENT {@code SUCCEEDED} only means that {@code agent.run()} returned, not that the workers succeeded
 *       (torch's launcher says so where it records it; the fixture shows one after a worker failure), so it
 *       yields nothing beyond the restart count; the job's end comes from the scheduler.</li>
 * </ul>
 *
 * <p><b>Rendezvous</b> ({@code RdzvEvent}: {@code name, run_id, message, hostname, pid, node_state,
 * master_endpoint, rank, local_id, error_trace}). Each node records "The node '...' has joined round R of the
 * rendezvous '...' as rank K in a world of size W." The translator gathers these per run and round and emits one
 * {@code trainer.rendezvous} when all W nodes have joined, with world size W × {@code procsPerNode} and one
 * participant per node ({@code firstRank = K × procsPerNode}); without {@code procsPerNode} it cannot count ranks
 * and rejects ({@code rendezvous_needs_procs_per_node}). A message longer than any join sentence (2,048
 * characters) is rejected unread ({@code invalid_rendezvous}). Other rendezvous events say nothing Lifeline tracks.
 *
 * <p><b>Job and node.</b> The job comes from the {@link JobResolver} by {@code run_id}; an unknown run is rejected
 * ({@code unknown_job}). The node is the event's {@code hostname}, mapped by the caller's function (identity by
 * default: on Kubernetes the hostname is the pod's, pass a mapping when that matters). Agents of one round that share
 * a host name (several agents on one machine) are told apart by torchelastic's node id in the join message
 * ({@code '<host>_<pid>_<n>'}): their nodes become {@code <node>_<pid>_<n>}. A status event's node is the one its
 * {@code group_rank} had in the run's latest complete round, when known.
 *
 * <p><b>Time.</b> {@code timestamp} is documented as milliseconds but is 0 in practice (the agent never sets
 * it), and RdzvEvent has none; the agent wrapper fills it in on both with the time torchelastic recorded the line.
 * Without one the caller's fallback time (when the line was received) is used; a non-zero value below 10^11 is taken
 * as seconds. A round's time is the latest of its joins' times: when its last agent joined, whichever line arrived
 * last.
 *
 * <p><b>Launches.</b> A run id names a job, not one launch of it: a job stopped and launched again with the same
 * {@code --rdzv-id} (a whole-job relaunch, a recreated master pod: a new c10d store) numbers its rounds from 0 again,
 * and its agents count their restarts from 0 again. So every id carries the launch the line belongs to: the
 * {@code lifeline_launch} field the agent wrapper adds to every line it forwards (made once when the wrapper starts;
 * letters, digits, {@code . _ -}, at most 64 characters, anything else is rejected as {@code invalid_launch}); else,
 * for a join, torchelastic's node id of the agent ({@code <host>_<pid>_<n>}, a new process in a new launch); else,
 * for a status line, the launch of the agent its {@code group_rank} had in the run's latest complete round when that
 * agent reported the same {@code hostname}. A status line whose launch is not known (its run's rounds were not seen)
 * gets ids without one.
 *
 * <p><b>Ids and source.</b> Source {@code torchelastic/<job>}; ids {@code torchelastic/<run>/<launch>/restarted/<n>}
 * and {@code torchelastic/<run>/<launch>/restart-<n>/worker_failed/<rank>} (per agent: each torchrun agent counts
 * its own restarts), {@code torchelastic/<run>/rendezvous/<round>/<members>} ({@code <members>}: 12 hex digits of the
 * SHA-256 of the launches of the round's agents in rank order, the same from whichever agent completed it). A line
 * sent again gives the same ids, so it is one event; the same round or restart of another launch gives others.
 * Thread-safe.
 */
public final class TorchelasticTranslator {

    public static final String MALFORMED_JSON = "malformed_json";
    public static final String NOT_A_TORCHELASTIC_EVENT = "not_a_torchelastic_event";
    public static final String MISSING_FIELD = "missing_field";
    public static final String UNKNOWN_JOB = "unknown_job";
    public static final String MISSING_RANK = "missing_rank";
    public static final String AGENT_RANKS_UNKNOWN = "agent_ranks_unknown";
    public static final String RENDEZVOUS_NEEDS_PROCS_PER_NODE = "rendezvous_needs_procs_per_node";
    public static final String INVALID_RENDEZVOUS = "invalid_rendezvous";
    public static final String INVALID_LAUNCH = "invalid_launch";
    /** The field the agent wrapper adds to every line it forwards: the launch the line belongs to. */
    public static final String LAUNCH_FIELD = "lifeline_launch";

    public static final int DEFAULT_MAX_PENDING_ROUNDS = 1024;
    private static final String STATUS_PREFIX = "torchelastic.worker.status.";
    private static final int MAX_ERROR = 1000;
    private static final int MAX_RANKS_PER_EVENT = 4096;
    /**
     * A join message is a sentence of a few hundred characters; a longer one is not read, because the pattern below
     * takes time quadratic in the length of a message that repeats its first words (seconds at a few hundred KB).
     */
    private static final int MAX_RENDEZVOUS_MESSAGE = 2048;

    private static final Pattern LAUNCH = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern JOINED = Pattern.compile(
            "(?:The node '([^']{1,512})' )?has joined round (\\d+) of .*as rank (\\d+) in a world of size (\\d+)");

    private static final ObjectMapper MAPPER = Json.untrusted(1 << 20);

    private final JobResolver jobs;
    private final UnaryOperator<String> nodeForHostname;
    private final RendezvousRounds rounds;
    private final TranslatorStats stats = new TranslatorStats("torchelastic");

    public TorchelasticTranslator(JobResolver jobs) {
        this(jobs, UnaryOperator.identity(), DEFAULT_MAX_PENDING_ROUNDS);
    }

    /**
     * @param jobs              run id → job
     * @param nodeForHostname   event hostname → node name (return the hostname when unknown)
     * @param maxPendingRounds  rendezvous rounds that may wait for their last node at a time
     */
    public TorchelasticTranslator(JobResolver jobs, UnaryOperator<String> nodeForHostname, int maxPendingRounds) {
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.nodeForHostname = Objects.requireNonNull(nodeForHostname, "nodeForHostname");
        this.rounds = new RendezvousRounds(maxPendingRounds);
    }

    public TranslatorStats stats() {
        return stats;
    }

    /** Translates one JSON line; {@code fallbackTime} is used when the event carries no usable time. */
    public Translation translate(String line, Instant fallbackTime) {
        return translate(line.getBytes(StandardCharsets.UTF_8), fallbackTime);
    }

    /** Translates one JSON line given as UTF-8 bytes. */
    public Translation translate(byte[] line, Instant fallbackTime) {
        Objects.requireNonNull(fallbackTime, "fallbackTime");
        JsonNode root;
        try {
            root = MAPPER.readTree(line);
        } catch (IOException e) {
            root = null;
        }
        Translation t;
        if (root == null || !root.isObject()) {
            t = Translation.rejected(MALFORMED_JSON, "not a JSON object");
        } else if (root.has(LAUNCH_FIELD) && launchField(root) == null) {
            t = Translation.rejected(
                    INVALID_LAUNCH, LAUNCH_FIELD + " must be 1 to 64 letters, digits, '.', '_' or '-'");
        } else if (root.has("metadata") && root.has("name") && root.has("source")) {
            t = status(root, fallbackTime);
        } else if (root.has("run_id") && root.has("node_state")) {
            t = rendezvous(root, fallbackTime);
        } else {
            t = Translation.rejected(NOT_A_TORCHELASTIC_EVENT, "neither a status event nor a rendezvous event");
        }
        return stats.record(t);
    }

    private Translation status(JsonNode root, Instant fallbackTime) {
        JsonNode md = objectOrJsonString(root.get("metadata"));
        String name = text(root.get("name"));
        String source = text(root.get("source"));
        String runId = md == null ? null : text(md.get("run_id"));
        if (md == null || runId == null || name == null || source == null) {
            return Translation.rejected(
                    MISSING_FIELD, "a status event needs name, source, metadata and metadata.run_id");
        }
        String hostname = text(md.get("hostname"));
        JobBinding binding = jobs.resolve(runId, hostname);
        if (binding == null) {
            return Translation.rejected(UNKNOWN_JOB, "run " + runId + " is not a known job");
        }
        String state = text(md.get("state"));
        if (state == null && name.startsWith(STATUS_PREFIX)) {
            state = name.substring(STATUS_PREFIX.length());
        }
        Instant time = time(root.get("timestamp"), fallbackTime);
        String node = nodeOf(runId, md.get("group_rank"), hostname);
        String launch = launchOf(root, runId, md.get("group_rank"), hostname);
        int restarts = md.path("agent_restarts").canConvertToInt()
                ? md.path("agent_restarts").intValue()
                : 0;
        String eventSource = "torchelastic/" + binding.job();
        List<Event> events = new ArrayList<>();
        if (restarts > 0) {
            events.add(new Event(
                    id(runId, launch, "restarted/" + restarts),
                    eventSource,
                    EventType.TRAINER_RESTARTED,
                    binding.job(),
                    time,
                    new TrainerData.Restarted(
                            runId,
                            restarts,
                            "torchelastic agent_restarts=" + restarts + " (reported by " + source + " " + state
                                    + ")")));
        }
        boolean failed = "FAILED".equals(state) || "UNHEALTHY".equals(state);
        if (!failed) {
            return Translation.of(events);
        }
        List<Integer> ranks;
        if ("WORKER".equals(source)) {
            ranks = ints(md.get("global_rank"));
            if (ranks.isEmpty()) {
                return new Translation(
                        events,
                        List.of(new Translation.Rejection(
                                MISSING_RANK, "worker " + state + " event of run " + runId + " has no global_rank")));
            }
        } else {
            JsonNode groupRank = md.get("group_rank");
            if (binding.procsPerNode() == null || groupRank == null || !groupRank.canConvertToInt()) {
                return new Translation(
                        events,
                        List.of(new Translation.Rejection(
                                AGENT_RANKS_UNKNOWN,
                                "agent " + state + " of run " + runId
                                        + ": ranks need group_rank and the job's procsPerNode")));
            }
            ranks = new ArrayList<>();
            int ppn = binding.procsPerNode();
            for (int r = groupRank.intValue() * ppn, end = r + ppn;
                    r < end && ranks.size() < MAX_RANKS_PER_EVENT;
                    r++) {
                ranks.add(r);
            }
        }
        ErrorInfo error = error(md.get("raw_error"));
        for (int rank : ranks) {
            events.add(new Event(
                    id(runId, launch, "restart-" + restarts + "/worker_failed/" + rank),
                    eventSource,
                    EventType.TRAINER_WORKER_FAILED,
                    binding.job(),
                    time,
                    new TrainerData.WorkerFailed(runId, rank, node, error.exitCode(), error.message())));
        }
        return Translation.of(events);
    }

    private Translation rendezvous(JsonNode root, Instant fallbackTime) {
        String runId = text(root.get("run_id"));
        String message = text(root.get("message"));
        if (message != null && message.length() > MAX_RENDEZVOUS_MESSAGE) {
            return Translation.rejected(
                    INVALID_RENDEZVOUS,
                    "message longer than " + MAX_RENDEZVOUS_MESSAGE + " characters: " + message.substring(0, 64)
                            + "...");
        }
        Matcher m = message == null ? null : JOINED.matcher(message);
        if (runId == null || m == null || !m.find()) {
            return Translation.empty(); // keep-alives, state syncs, failures: nothing the catalogue tracks
        }
        String hostname = text(root.get("hostname"));
        JobBinding binding = jobs.resolve(runId, hostname);
        if (binding == null) {
            return Translation.rejected(UNKNOWN_JOB, "run " + runId + " is not a known job");
        }
        if (binding.procsPerNode() == null) {
            return Translation.rejected(
                    RENDEZVOUS_NEEDS_PROCS_PER_NODE,
                    "run " + runId + ": a rendezvous counts nodes; ranks need the job's procsPerNode");
        }
        int round;
        int rank;
        int worldSize;
        try {
            round = Integer.parseInt(m.group(2));
            rank = Integer.parseInt(m.group(3));
            worldSize = Integer.parseInt(m.group(4));
        } catch (NumberFormatException e) {
            return Translation.rejected(INVALID_RENDEZVOUS, "unreadable numbers in: " + abbreviate(message));
        }
        if (hostname == null || worldSize < 1 || rank >= worldSize) {
            return Translation.rejected(
                    INVALID_RENDEZVOUS, "hostname missing or rank outside the world in: " + abbreviate(message));
        }
        String agentId = m.group(1);
        String launch = launchField(root);
        if (launch == null && agentId != null) {
            launch = agentId;
        }
        RendezvousRounds.Round complete = rounds.join(
                runId,
                round,
                rank,
                worldSize,
                nodeForHostname.apply(hostname),
                hostname,
                agentId,
                launch,
                time(root.get("timestamp"), fallbackTime));
        if (complete == null) {
            return Translation.empty();
        }
        int ppn = binding.procsPerNode();
        List<TrainerData.Participant> participants = new ArrayList<>(complete.nodes());
        for (int i = 0; i < complete.nodeByRank().size(); i++) {
            participants.add(new TrainerData.Participant(complete.nodeByRank().get(i), i * ppn, ppn));
        }
        String members = members(complete.launchByRank());
        return Translation.of(List.of(new Event(
                id(runId, "rendezvous/" + round + (members == null ? "" : "/" + members)),
                "torchelastic/" + binding.job(),
                EventType.TRAINER_RENDEZVOUS,
                binding.job(),
                complete.time(),
                new TrainerData.Rendezvous(runId, round, complete.nodes() * ppn, participants))));
    }

    /**
     * The node of a status event: the one its agent's group rank had in the run's latest rendezvous when that is
     * known (several agents may share a host name), else the host name's node.
     */
    private String nodeOf(String runId, JsonNode groupRank, String hostname) {
        String fromRound = groupRank != null && groupRank.canConvertToInt()
                ? rounds.nodeOf(runId, groupRank.intValue(), hostname)
                : null;
        if (fromRound != null) {
            return fromRound;
        }
        return hostname == null ? null : nodeForHostname.apply(hostname);
    }

    /** The wrapper's launch id of a line, or null when it has none or it is not a valid one. */
    private static String launchField(JsonNode root) {
        JsonNode n = root.get(LAUNCH_FIELD);
        String v = n != null && n.isTextual() ? n.textValue() : null;
        return v != null && LAUNCH.matcher(v).matches() ? v : null;
    }

    /**
     * The launch of a status line: the wrapper's, else the one its agent's group rank had in the run's latest round
     * when the host is the same (status lines name no agent: only a host, which a relaunch keeps, and a group rank),
     * else null.
     */
    private String launchOf(JsonNode root, String runId, JsonNode groupRank, String hostname) {
        String launch = launchField(root);
        if (launch == null && groupRank != null && groupRank.canConvertToInt()) {
            launch = rounds.launchOf(runId, groupRank.intValue(), hostname);
        }
        return launch;
    }

    /**
     * The round's members as one short name: 12 hex digits of the SHA-256 of their launches in rank order; null when
     * no member's launch is known.
     */
    private static String members(List<String> launchByRank) {
        return launchByRank.stream().allMatch(Objects::isNull) ? null : sha256Hex(launchByRank, 6);
    }

    /** The first {@code bytes} bytes, in hex, of the SHA-256 of the strings, each ended by a new line (null: empty). */
    private static String sha256Hex(List<String> parts, int bytes) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                sha.update((p == null ? "" : p).getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest(), 0, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** The error message and code of a worker's error file ({@code raw_error}), or of an agent's traceback. */
    private static ErrorInfo error(JsonNode raw) {
        if (raw == null || raw.isNull()) {
            return new ErrorInfo(null, null);
        }
        JsonNode parsed = objectOrJsonString(raw);
        if (parsed == null) {
            String text = raw.isTextual() ? raw.textValue() : raw.toString();
            return new ErrorInfo(lastLine(text), null);
        }
        JsonNode message = parsed.get("message");
        if (message != null && message.isObject()) {
            JsonNode code = message.get("errorCode");
            return new ErrorInfo(
                    abbreviate(text(message.get("message"))),
                    code != null && code.canConvertToInt() ? code.intValue() : null);
        }
        String m = text(message);
        return new ErrorInfo("<NONE>".equals(m) ? null : abbreviate(m), null);
    }

    private record ErrorInfo(String message, Integer exitCode) {}

    private static JsonNode objectOrJsonString(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isObject()) {
            return n;
        }
        if (n.isTextual()) {
            try {
                JsonNode parsed = MAPPER.readTree(n.textValue());
                return parsed != null && parsed.isObject() ? parsed : null;
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    /** A rank as torchelastic writes it: a number, a list of numbers, or null. */
    private static List<Integer> ints(JsonNode n) {
        List<Integer> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (n.isArray()) {
            for (JsonNode v : n) {
                if (v.canConvertToInt() && v.intValue() >= 0 && out.size() < MAX_RANKS_PER_EVENT) {
                    out.add(v.intValue());
                }
            }
        } else if (n.canConvertToInt() && n.intValue() >= 0) {
            out.add(n.intValue());
        }
        return out;
    }

    private static Instant time(JsonNode ts, Instant fallback) {
        if (ts == null || !ts.canConvertToLong() || ts.longValue() <= 0) {
            return fallback;
        }
        long v = ts.longValue();
        return v < 100_000_000_000L ? Instant.ofEpochSecond(v) : Instant.ofEpochMilli(v);
    }

    private static String text(JsonNode n) {
        if (n == null || n.isNull() || n.isContainerNode()) {
            return null;
        }
        String s = n.asText();
        return s.isBlank() ? null : s;
    }

    private static String id(String runId, String rest) {
        String r = runId.length() <= 128 ? runId : runId.substring(0, 128);
        return "torchelastic/" + r + "/" + rest;
    }

    /**
     * An id of one agent's fact: under its launch when known (a node id longer than a launch id may be, or with
     * characters an id part should not hold, by 16 hex digits of its hash: cut short it could lose the pid).
     */
    private static String id(String runId, String launch, String rest) {
        if (launch == null) {
            return id(runId, rest);
        }
        String l = LAUNCH.matcher(launch).matches() ? launch : "h" + sha256Hex(List.of(launch), 8);
        return id(runId, l + "/" + rest);
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines.length == 0 ? null : abbreviate(lines[lines.length - 1].strip());
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= MAX_ERROR ? s : s.substring(0, MAX_ERROR - 3) + "...";
    }
}
