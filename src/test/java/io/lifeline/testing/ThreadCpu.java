package io.lifeline.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time spent by this JVM's threads between two moments, by thread family (the name without its trailing
 * number, so that the decoders add up): a breakdown of where a benchmark phase's work goes that the machine's other
 * load does not inflate the way it inflates wall time. Threads that end before {@link #since} are not counted.
 */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> start = new HashMap<>();

    private ThreadCpu() {
    }

    /** The CPU time of every live thread now. */
    public static ThreadCpu now() {
        ThreadCpu t = new ThreadCpu();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu >= 0) {
                t.start.put(id, cpu);
            }
        }
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
        Map<String, Long> sorted = new LinkedHashMap<>();
        byFamily.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** A thread's family: its name without a trailing number and separator ("lifeline-kafka-decode-1" to "lifeline-kafka-decode"). */
    static String family(String name) {
        return name.replaceAll("[-#_ ]?\\d+$", "");
    }

    /** One line per family: microseconds of CPU per event and the share of the total, for families above 1 %. */
    public static String perEvent(Map<String, Long> nanos, long events) {
        long total = nanos.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder sb = new StringBuilder(String.format("total %.2f us/event%n", total / 1e3 / events));
        nanos.forEach((family, n) -> {
            if (n * 100 >= total) {
                sb.append(String.format("  %-48s %6.2f us/event %5.1f %%%n", family, n / 1e3 / events, 100.0 * n / total));
            }
        });
        return sb.toString();
    }
}
