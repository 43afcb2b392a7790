package io.lifeline.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time spent by this JVM's threads between two moments, by thread family (the name without its trailing
 * number, so that the decoders add up): a breakdown of where a benchmark phase's work goes that the machine's other
 * load does not inflate the way it inflates wall time. Threads that end before {@link #since} are not counted.
 * On Linux the other processes of the machine are added by command name ({@code process: postgres} for the embedded
 * database's server processes, {@code process: java} for a load generator's JVM), read from {@code /proc} in clock
 * ticks, so that what the database costs per event is beside what the application costs.
 */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long NANOS_PER_TICK = 10_000_000L;
    private final Map<Long, Long> start = new HashMap<>();
    private final Map<Long, ProcessTicks> processes = new HashMap<>();
    private final Map<Long, ProcessTicks> vmThreads = new HashMap<>();
    /** Busy and idle clock ticks of the whole machine ({@code /proc/stat}). */
    private long[] machine;

    private long wallNanos;

    private ThreadCpu() {}

    /** The CPU time of every live thread now. */
    public static ThreadCpu now() {
        ThreadCpu t = new ThreadCpu();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu >= 0) {
                t.start.put(id, cpu);
            }
        }
        t.processes.putAll(otherProcesses());
        t.vmThreads.putAll(vmThreads());
        t.machine = machineTicks();
        t.wallNanos = System.nanoTime();
        return t;
    }

    /** Nanoseconds of CPU per thread family since this moment, largest first. */
    public Map<String, Long> since() {
        Map<String, Long> byFamily = new TreeMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            ThreadInfo info = THREADS.getThreadInfo(id);
            if (cpu < 0 || info == null) {
                continue;
            }
            long used = cpu - start.getOrDefault(id, 0L);
            if (used > 0) {
                byFamily.merge(family(info.getThreadName()), used, Long::sum);
            }
        }
        // The JVM's own threads, which the thread bean does not list: garbage collection and the JIT compilers.
        vmThreads().forEach((tid, now) -> {
            ProcessTicks before = vmThreads.get(tid);
            long used = now.ticks() - (before == null ? 0 : before.ticks());
            if (used > 0) {
                byFamily.merge(now.name(), used * NANOS_PER_TICK, Long::sum);
            }
        });
        otherProcesses().forEach((pid, now) -> {
            ProcessTicks before = processes.get(pid);
            long used = now.ticks() - (before == null || !before.name().equals(now.name()) ? 0 : before.ticks());
            if (used > 0) {
                byFamily.merge("process: " + now.name(), used * NANOS_PER_TICK, Long::sum);
            }
        });
        Map<String, Long> sorted = new LinkedHashMap<>();
        byFamily.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** Command name and user plus system CPU ticks of a process. */
    private record ProcessTicks(String name, long ticks) {}

    /**
     * How busy the whole machine was since this moment (every process, the kernel's interrupts included), per event
     * and as a share of its cores: whether a phase was bound by the CPU at all.
     */
    public String machine(long events) {
        long[] now = machineTicks();
        if (machine == null || now == null) {
            return "";
        }
        long busy = now[0] - machine[0];
        long idle = now[1] - machine[1];
        double wallTicks = (System.nanoTime() - wallNanos) / (double) NANOS_PER_TICK;
        return String.format(
                "machine: %.2f us/event busy, %.0f %% of %d cores (idle %.0f %%)%n",
                busy * NANOS_PER_TICK / 1e3 / events,
                100.0 * busy / (wallTicks * Runtime.getRuntime().availableProcessors()),
                Runtime.getRuntime().availableProcessors(),
                100.0 * idle / Math.max(1, busy + idle));
    }

    /** Busy (user, nice, system, interrupts, steal) and idle (idle, I/O wait) ticks of the machine, or null. */
    private static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = Long.parseLong(f[1])
                    + Long.parseLong(f[2])
                    + Long.parseLong(f[3])
                    + Long.parseLong(f[6])
                    + Long.parseLong(f[7])
                    + Long.parseLong(f[8]);
            return new long[] {busy, Long.parseLong(f[4]) + Long.parseLong(f[5])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * This JVM's own threads by task id, named by what they do ({@code jvm: gc}, {@code jvm: jit}, {@code jvm: vm}),
     * from {@code /proc/self/task} (empty where there is none). Java threads are left to the thread bean.
     */
    private static Map<Long, ProcessTicks> vmThreads() {
        Map<Long, ProcessTicks> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String kind = name.startsWith("GC Thread") || name.startsWith("G1 ")
                            ? "jvm: gc"
                            : name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")
                                    ? "jvm: jit"
                                    : name.equals("VM Thread") || name.startsWith("VM Periodic") ? "jvm: vm" : null;
                    if (kind != null) {
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        out.put(
                                Long.parseLong(task.getFileName().toString()),
                                new ProcessTicks(kind, Long.parseLong(f[11]) + Long.parseLong(f[12])));
                    }
                } catch (IOException | RuntimeException e) {
                    // Ended meanwhile.
                }
            });
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** Every process of the machine but this one, by pid (empty where there is no {@code /proc}). */
    private static Map<Long, ProcessTicks> otherProcesses() {
        Map<Long, ProcessTicks> out = new HashMap<>();
        long self = ProcessHandle.current().pid();
        try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
            dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(d -> {
                        long pid = Long.parseLong(d.getFileName().toString());
                        if (pid == self) {
                            return;
                        }
                        try {
                            String stat = Files.readString(d.resolve("stat"));
                            int open = stat.indexOf('(');
                            int close = stat.lastIndexOf(')');
                            String[] f = stat.substring(close + 2).split(" ");
                            // Fields after the name: state is the first; utime and stime are the 12th and 13th.
                            out.put(
                                    pid,
                                    new ProcessTicks(
                                            stat.substring(open + 1, close),
                                            Long.parseLong(f[11]) + Long.parseLong(f[12])));
                        } catch (IOException | RuntimeException e) {
                            // Ended meanwhile.
                        }
                    });
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** A thread's family: its name without a trailing number and separator ("lifeline-kafka-decode-1" to "lifeline-kafka-decode"). */
    static String family(String name) {
        return name.replaceAll("[-#_ ]?\\d+$", "");
    }

    /** One line per family: microseconds of CPU per event and the share of the total, for families above 1 %. */
    public static String perEvent(Map<String, Long> nanos, long events) {
        long total = nanos.values().stream().mapToLong(Long::longValue).sum();
        long jvm = nanos.entrySet().stream()
                .filter(e -> !e.getKey().startsWith("process: "))
                .mapToLong(Map.Entry::getValue)
                .sum();
        StringBuilder sb = new StringBuilder(String.format(
                "total %.2f us/event (this JVM %.2f, other processes %.2f)%n",
                total / 1e3 / events, jvm / 1e3 / events, (total - jvm) / 1e3 / events));
        nanos.forEach((family, n) -> {
            if (n * 100 >= total) {
                sb.append(String.format(
                        "  %-48s %6.2f us/event %5.1f %%%n", family, n / 1e3 / events, 100.0 * n / total));
            }
        });
        return sb.toString();
    }
}
