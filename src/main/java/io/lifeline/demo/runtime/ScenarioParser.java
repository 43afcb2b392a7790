package io.lifeline.demo.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a demo scenario file (JSON, documented in docs/demo.md) into a {@link Scenario}, applying the
 * defaults of optional fields. Every problem is collected (wrong type, missing or unknown field, value out
 * of range, reference to a pool that does not exist) and reported together in a {@link ScenarioException}.
 */
public final class ScenarioParser {

    /** Classpath location of the built-in scenario. */
    public static final String DEFAULT_RESOURCE = "demo/scenario.json";

    static final long DEFAULT_SEED = 42;
    static final long DEFAULT_TELEMETRY_INTERVAL_S = 10;
    static final long DEFAULT_PROGRESS_INTERVAL_S = 10;
    static final double DEFAULT_XID_RATE = 0.01;
    static final double DEFAULT_FATAL_XID_FRACTION = 0.4;
    static final long DEFAULT_REPLACEMENT_DELAY_S = 300;
    static final long DEFAULT_NODE_REPAIR_S = 1200;
    static final int DEFAULT_GPUS_PER_NODE = 8;
    static final long DEFAULT_NOTICE_S = 120;
    static final int DEFAULT_MAX_RESTARTS = 100;
    static final int DEFAULT_SAMPLES_PER_STEP = 1024;
    static final long DEFAULT_CHECKPOINT_INTERVAL_S = 1800;
    static final double DEFAULT_BLOCKING_S = 10;
    static final double DEFAULT_SIZE_GIB = 100;
    static final double DEFAULT_RESTORE_S = 30;
    static final String DEFAULT_URI_PREFIX = "s3://lifeline-demo-checkpoints";

    private static final JsonNode EMPTY = Json.mapper().createObjectNode();

    private final ObjectMapper mapper = Json.mapper();

    /** The built-in scenario. */
    public Scenario loadDefault() {
        try (InputStream in = ScenarioParser.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new ScenarioException("classpath:" + DEFAULT_RESOURCE, List.of("resource not found"));
            }
            return parse(in.readAllBytes(), "classpath:" + DEFAULT_RESOURCE);
        } catch (IOException e) {
            throw new ScenarioException("classpath:" + DEFAULT_RESOURCE, List.of("unreadable: " + e.getMessage()));
        }
    }

    /** A scenario file on disk. */
    public Scenario load(Path file) {
        try {
            return parse(Files.readAllBytes(file), file.toString());
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file.toString(), List.of("file not found"));
        } catch (IOException e) {
            throw new ScenarioException(file.toString(), List.of("unreadable: " + e.getMessage()));
        }
    }

    /**
     * Parses scenario JSON.
     *
     * @param json    the file's bytes
     * @param source  where it came from, for messages
     * @throws ScenarioException listing every problem
     */
    public Scenario parse(byte[] json, String source) {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new ScenarioException(source, List.of("malformed JSON" + where + ": " + e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ScenarioException(source, List.of("unreadable: " + e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new ScenarioException(
                    source, List.of("expected a JSON object at the top level, got " + JsonFields.describe(root)));
        }
        List<String> problems = new ArrayList<>();
        JsonFields f = new JsonFields(root, "", problems);
        long seed = f.integer("seed", DEFAULT_SEED, false);
        long telemetry = f.integer("telemetryIntervalSeconds", DEFAULT_TELEMETRY_INTERVAL_S, false);
        long progress = f.integer("progressIntervalSeconds", DEFAULT_PROGRESS_INTERVAL_S, false);
        double xidRate = f.number("xidRatePerNodeHour", DEFAULT_XID_RATE, false);
        double fatal = f.number("fatalXidFraction", DEFAULT_FATAL_XID_FRACTION, false);
        long replacement = f.integer("replacementDelaySeconds", DEFAULT_REPLACEMENT_DELAY_S, false);
        long repair = f.integer("nodeRepairSeconds", DEFAULT_NODE_REPAIR_S, false);
        Long firstNotice = f.optionalInteger("firstNoticeAfterSeconds");
        List<Scenario.Pool> pools = new ArrayList<>();
        List<JsonNode> poolNodes = f.objects("pools", true);
        for (int i = 0; i < poolNodes.size(); i++) {
            if (poolNodes.get(i) != null) {
                pools.add(pool(new JsonFields(poolNodes.get(i), "pools[" + i + "].", problems)));
            }
        }
        List<Scenario.Job> jobs = new ArrayList<>();
        List<JsonNode> jobNodes = f.objects("jobs", false);
        for (int i = 0; i < jobNodes.size(); i++) {
            if (jobNodes.get(i) != null) {
                jobs.add(job(jobNodes.get(i), "jobs[" + i + "].", problems));
            }
        }
        f.rejectUnknown();
        if (!problems.isEmpty()) {
            // Range checks on half-read values would only repeat these problems in other words.
            throw new ScenarioException(source, problems);
        }
        Scenario scenario =
                new Scenario(seed, telemetry, progress, xidRate, fatal, replacement, repair, firstNotice, pools, jobs);
        List<String> semantic = scenario.problems();
        if (!semantic.isEmpty()) {
            throw new ScenarioException(source, semantic);
        }
        return scenario;
    }

    private static Scenario.Pool pool(JsonFields f) {
        String name = f.string("name", null, true);
        String capacity = f.string("capacityType", null, true);
        CapacityType type = CapacityType.fromWireName(capacity);
        Scenario.Pool pool = new Scenario.Pool(
                name,
                type,
                f.string("zone", null, true),
                f.string("instanceType", null, true),
                f.string("gpuModel", null, false),
                f.smallInteger("nodeCount", 0, true),
                f.smallInteger("gpusPerNode", DEFAULT_GPUS_PER_NODE, false),
                f.number("interruptionsPerNodeHour", 0, false),
                f.integer("noticeSeconds", DEFAULT_NOTICE_S, false),
                f.string("nodePool", null, false));
        f.rejectUnknown();
        if (capacity != null && type == null) {
            f.problem("capacityType", "must be spot, on-demand or reserved, got \"" + capacity + "\"");
        }
        return pool;
    }

    private static Scenario.Job job(JsonNode node, String at, List<String> problems) {
        JsonFields f = new JsonFields(node, at, problems);
        String namespace = f.string("namespace", null, true);
        String name = f.string("name", null, true);
        String owner = f.string("owner", null, false);
        String priorityClass = f.string("priorityClass", null, false);
        String queue = f.string("queue", null, false);
        List<String> pools = f.strings("pools");
        int min = f.smallInteger("minNodes", 1, true);
        int max = f.smallInteger("maxNodes", min, true);
        int procs = f.smallInteger("procsPerNode", DEFAULT_GPUS_PER_NODE, false);
        int maxRestarts = f.smallInteger("maxRestarts", DEFAULT_MAX_RESTARTS, false);
        long startAfter = f.integer("startAfterSeconds", 0, false);
        long startStep = f.integer("startStep", 0, false);
        double stepSeconds = f.number("stepSeconds", 1, true);
        int samples = f.smallInteger("samplesPerStep", DEFAULT_SAMPLES_PER_STEP, false);
        int tokens = f.smallInteger("tokensPerSample", 0, false);
        JsonNode c = f.object("checkpoint");
        Scenario.Checkpointing checkpoint = checkpointing(c == null ? EMPTY : c, at + "checkpoint.", problems);
        f.rejectUnknown();
        return new Scenario.Job(
                namespace,
                name,
                owner,
                priorityClass,
                queue,
                pools,
                min,
                max,
                procs,
                maxRestarts,
                startAfter,
                startStep,
                stepSeconds,
                samples,
                tokens,
                checkpoint);
    }

    private static Scenario.Checkpointing checkpointing(JsonNode node, String at, List<String> problems) {
        JsonFields f = new JsonFields(node, at, problems);
        long interval = f.integer("intervalSeconds", DEFAULT_CHECKPOINT_INTERVAL_S, false);
        double blocking = f.number("blockingSeconds", DEFAULT_BLOCKING_S, false);
        boolean async = f.bool("async", false);
        // An async save uploads in the background for a while after the blocking snapshot.
        double upload = f.number("uploadSeconds", async ? blocking * 4 : blocking, false);
        Scenario.Checkpointing c = new Scenario.Checkpointing(
                interval,
                blocking,
                async,
                upload,
                f.number("sizeGiB", DEFAULT_SIZE_GIB, false),
                f.number("restoreSeconds", DEFAULT_RESTORE_S, false),
                f.string("uriPrefix", DEFAULT_URI_PREFIX, false),
                f.number("failureRate", 0, false),
                f.string("durableUriPrefix", null, false));
        f.rejectUnknown();
        return c;
    }
}
