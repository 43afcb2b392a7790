package io.lifeline.demo;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How long the periodic whole-model reads hold the model's thread (while one runs, no event is applied: a notice
 * arriving then waits), this build beside an earlier one, in one run: each version gets its own class loader and
 * its own 2,000-node (16,000-GPU), 500-job simulated fleet from the same seed; every round applies one more
 * simulated second of events to both (not timed) and then times each version's reads once, the two versions in
 * alternating order. Run by {@code bench/model-hold.sh}, which builds the earlier version:
 * <pre>
 * java -Xmx6g -cp CURRENT io.lifeline.demo.ModelHoldBenchmark --current CURRENT --previous PREVIOUS [--rounds 120]
 * </pre>
 * where CURRENT and PREVIOUS are class paths (classes, test classes and dependencies) of the two builds.
 */
public final class ModelHoldBenchmark {

    private ModelHoldBenchmark() {}

    public static void main(String[] args) throws Exception {
        String current = null;
        String previous = null;
        int rounds = 120;
        int nodes = 2000;
        int jobs = 500;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--current" -> current = args[++i];
                case "--previous" -> previous = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--jobs" -> jobs = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (current == null || previous == null) {
            throw new IllegalArgumentException("--current and --previous class paths are required");
        }
        Version[] versions = {
            new Version("previous", previous, nodes, jobs), new Version("current", current, nodes, jobs)
        };
        for (int r = 0; r < rounds; r++) {
            for (Version v : versions) {
                v.advance();
            }
            // Alternate which version goes first, so neither always runs on a cache the other just warmed.
            for (int k = 0; k < versions.length; k++) {
                versions[(r + k) % versions.length].read(r >= 10);
            }
        }
        for (Version v : versions) {
            v.print();
        }
    }

    /** One build's probe and what its reads measured. */
    private static final class Version {
        final String name;
        final Object probe;
        final Method advance;
        final Method readOnce;
        final List<String> reads;
        final List<List<Long>> nanos = new ArrayList<>();

        @SuppressWarnings("unchecked")
        Version(String name, String classPath, int nodes, int jobs) throws Exception {
            this.name = name;
            List<URL> urls = new ArrayList<>();
            for (String p : classPath.split(File.pathSeparator)) {
                if (!p.isBlank()) {
                    urls.add(new File(p).toURI().toURL());
                }
            }
            ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
            Class<?> type = Class.forName("io.lifeline.demo.HoldProbe", true, loader);
            Constructor<?> c = type.getConstructor(int.class, int.class, int.class);
            Thread.currentThread().setContextClassLoader(loader);
            this.probe = c.newInstance(nodes, jobs, 10);
            this.advance = type.getMethod("advance", int.class);
            this.readOnce = type.getMethod("readOnce");
            this.reads = (List<String>) type.getMethod("reads").invoke(probe);
            for (int i = 0; i < reads.size(); i++) {
                nanos.add(new ArrayList<>());
            }
        }

        void advance() throws Exception {
            advance.invoke(probe, 1);
        }

        void read(boolean record) throws Exception {
            long[] t = (long[]) readOnce.invoke(probe);
            if (record) {
                for (int i = 0; i < t.length; i++) {
                    nanos.get(i).add(t[i]);
                }
            }
        }

        void print() {
            for (int i = 0; i < reads.size(); i++) {
                long[] v = nanos.get(i).stream()
                        .mapToLong(Long::longValue)
                        .sorted()
                        .toArray();
                System.out.printf(
                        Locale.ROOT,
                        "[hold] %s | %s | n=%d | median %.2f ms | p99 %.2f ms | max %.2f ms%n",
                        name,
                        reads.get(i),
                        v.length,
                        ms(v[v.length / 2]),
                        ms(v[(int) Math.ceil(v.length * 0.99) - 1]),
                        ms(v[v.length - 1]));
            }
            System.out.printf(
                    Locale.ROOT,
                    "[hold] %s | all rounds: %s%n",
                    name,
                    Arrays.toString(nanos.get(0).stream()
                            .mapToDouble(ModelHoldBenchmark::ms)
                            .map(x -> Math.round(x * 10) / 10.0)
                            .toArray()));
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
