package io.lifeline.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One real torchrun elastic agent running {@code examples/elastic_train.py} through the trainer agent's wrapper
 * ({@code python -m lifeline_agent.run}), as one "node" of a job on this machine; a node failure is played by killing
 * the agent and every process under it. Every line the agent and its workers print is
 * kept in a log file; the example's {@code LIFELINE_EXAMPLE} lines are parsed and stamped with when they were read.
 */
final class TorchrunAgent implements AutoCloseable {

    /** Where a repository's Python environment with torch is ({@code .ci/python-env} makes it). */
    static Path python() {
        String configured = System.getProperty("lifeline.python");
        Path p = configured != null && !configured.isBlank() ? Path.of(configured) : Path.of(".venv", "bin", "python");
        if (!Files.isExecutable(p)) {
            throw new IllegalStateException("no Python with torch at " + p.toAbsolutePath()
                    + ": run `bash .ci/python-env .venv` first (or set -Dlifeline.python=...)");
        }
        return p.toAbsolutePath();
    }

    /** One parsed {@code LIFELINE_EXAMPLE} line. */
    record Line(long atNanos, String kind, Map<String, String> fields) {
        long step() {
            return Long.parseLong(fields.get("step"));
        }

        String get(String key) {
            return fields.get(key);
        }
    }

    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    private final String node;
    private final Process process;
    private final Path log;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private TorchrunAgent(String node, Process process, Path log) {
        this.node = node;
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::read, "torchrun-" + node);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * Starts one agent.
     *
     * @param lifelineUrl Lifeline's URL
     * @param token       a token the agent may post events and serve commands with
     * @param job         {@code namespace/name}
     * @param node        the node name this agent reports ({@code LIFELINE_NODE})
     * @param rdzvPort    the c10d rendezvous port on 127.0.0.1 (the same for every agent of the job)
     * @param torchrun    extra torchrun options (before the script)
     * @param script      the example's options
     * @param env         extra environment
     */
    static TorchrunAgent start(
            Path workDir,
            String lifelineUrl,
            String token,
            String job,
            String node,
            int rdzvPort,
            List<String> torchrun,
            List<String> script,
            Map<String, String> env)
            throws IOException {
        return start("1:2", workDir, lifelineUrl, token, job, node, rdzvPort, torchrun, script, env);
    }

    /** Like the other, with torchrun's {@code --nnodes} (for example {@code 1} for a job of one node). */
    static TorchrunAgent start(
            String nnodes,
            Path workDir,
            String lifelineUrl,
            String token,
            String job,
            String node,
            int rdzvPort,
            List<String> torchrun,
            List<String> script,
            Map<String, String> env)
            throws IOException {
        return start(
                nnodes,
                workDir,
                lifelineUrl,
                token,
                job,
                node,
                rdzvPort,
                torchrun,
                Path.of("examples/elastic_train.py").toAbsolutePath(),
                script,
                env);
    }

    /**
     * Like the others, running {@code program} (a training script that prints {@code LIFELINE_EXAMPLE} lines as the
     * example does) with {@code arguments}.
     */
    static TorchrunAgent start(
            String nnodes,
            Path workDir,
            String lifelineUrl,
            String token,
            String job,
            String node,
            int rdzvPort,
            List<String> torchrun,
            Path program,
            List<String> arguments,
            Map<String, String> env)
            throws IOException {
        Path repo = Path.of("").toAbsolutePath();
        Path log = workDir.resolve(node + ".log");
        List<String> cmd = new ArrayList<>(List.of(
                python().toString(),
                "-u",
                "-m",
                "lifeline_agent.run",
                "--nnodes=" + nnodes,
                "--nproc-per-node=1",
                "--rdzv-backend=c10d",
                "--rdzv-endpoint=127.0.0.1:" + rdzvPort,
                "--rdzv-id=" + job.replace('/', '-'),
                "--monitor-interval=0.5"));
        cmd.addAll(torchrun);
        cmd.add(program.toString());
        cmd.addAll(arguments);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        Map<String, String> e = pb.environment();
        e.put("PYTHONPATH", repo.resolve("clients/python").toString());
        e.put("PYTHONUNBUFFERED", "1");
        e.put("LIFELINE_URL", lifelineUrl);
        e.put("LIFELINE_TOKEN", token);
        e.put("LIFELINE_JOB", job);
        e.put("LIFELINE_NODE", node);
        e.put("OMP_NUM_THREADS", "1");
        e.put("LIFELINE_PROGRESS_INTERVAL", "1");
        e.putAll(env);
        return new TorchrunAgent(node, pb.start(), log);
    }

    static Map<String, String> env(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    private void read() {
        try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String l;
            while ((l = r.readLine()) != null) {
                long at = System.nanoTime();
                out.write(l);
                out.write('\n');
                out.flush();
                int i = l.indexOf("LIFELINE_EXAMPLE ");
                if (i >= 0) {
                    String rest = l.substring(i + "LIFELINE_EXAMPLE ".length()).trim();
                    String kind = rest.startsWith("step=") ? "step" : rest.split("\\s+", 2)[0];
                    Map<String, String> fields = new HashMap<>();
                    Matcher m = FIELD.matcher(rest);
                    while (m.find()) {
                        fields.put(m.group(1), m.group(2));
                    }
                    lines.add(new Line(at, kind, fields));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String node() {
        return node;
    }

    Path log() {
        return log;
    }

    List<Line> lines() {
        return List.copyOf(lines);
    }

    List<Line> lines(String kind) {
        return lines.stream().filter(l -> l.kind().equals(kind)).toList();
    }

    /** The last line of that kind matching {@code p}, or null. */
    Line last(String kind, Predicate<Line> p) {
        Line found = null;
        for (Line l : lines) {
            if (l.kind().equals(kind) && p.test(l)) {
                found = l;
            }
        }
        return found;
    }

    /** The highest step a training step line reported, or -1. */
    long lastStep() {
        return lines("step").stream().mapToLong(Line::step).max().orElse(-1);
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * SIGTERM to the agent alone, as a scheduler's preemption or an eviction sends it; torchrun passes it on. Sent
     * through the process handle: {@code Process.destroy()} would also close the pipe the agent and its workers
     * write their log to, and their next line would kill them with a broken pipe.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /**
     * SIGKILL to the agent and all its workers at once: the node is gone, nothing gets to say goodbye. torchrun starts
     * its workers in sessions of their own, so they are found as the agent's descendants, not by process group.
     */
    void killNode() {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
    }

    /** Waits for the agent to exit; its exit code, or null when it still runs. */
    Integer awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    /** The log's last lines, for a failure message. */
    String tail() {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            killNode();
        }
    }
}
