package io.lifeline.connector.inbound.dcgm;

import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.exposition.Exposition;
import io.lifeline.connector.inbound.exposition.ExpositionParser;
import io.lifeline.connector.inbound.exposition.Format;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The dcgm parse figure of BENCHMARKS.md, by per-thread CPU time (what the scraping thread itself spends, which the
 * other builds on a shared machine do not inflate the way they inflate wall-clock figures): the 8-GPU scrape of
 * {@link DcgmParseBenchmark}, parsed with a reused parser and translated, {@code runs} times {@code scrapes} scrapes
 * after a warm-up, parse and translate timed apart; bytes allocated per scrape from the thread's allocation counter.
 * Prints one JSON object: {@code bench/dcgm-parse.sh [runs] [scrapes]}.
 */
public final class DcgmParseCpuTime {

    private DcgmParseCpuTime() {}

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int scrapes = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        byte[] body = DcgmParseBenchmark.eightGpuScrape().getBytes(StandardCharsets.UTF_8);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ExpositionParser parser = new ExpositionParser();
        DcgmScrapeTranslator translator = new DcgmScrapeTranslator();
        long sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += once(parser, translator, body, i).events().size();
        }
        long tid = Thread.currentThread().getId();
        List<Double> perSecond = new ArrayList<>();
        List<Double> parseMicros = new ArrayList<>();
        List<Double> translateMicros = new ArrayList<>();
        List<Double> allocated = new ArrayList<>();
        int series = parser.parseBytes(body, Format.PROMETHEUS_TEXT).samples().size();
        for (int r = 0; r < runs; r++) {
            long parseNanos = 0;
            long translateNanos = 0;
            long bytes0 = threads.getThreadAllocatedBytes(tid);
            for (int i = 0; i < scrapes; i++) {
                long t0 = threads.getCurrentThreadCpuTime();
                Exposition samples = parser.parseBytes(body, Format.PROMETHEUS_TEXT);
                long t1 = threads.getCurrentThreadCpuTime();
                Translation t = translator.translate(samples, scrape(i));
                long t2 = threads.getCurrentThreadCpuTime();
                parseNanos += t1 - t0;
                translateNanos += t2 - t1;
                sink += t.events().size();
            }
            long bytes = threads.getThreadAllocatedBytes(tid) - bytes0;
            perSecond.add(scrapes / ((parseNanos + translateNanos) / 1e9));
            parseMicros.add(parseNanos / 1e3 / scrapes);
            translateMicros.add(translateNanos / 1e3 / scrapes);
            allocated.add((double) bytes / scrapes);
        }
        System.out.printf(
                Locale.ROOT,
                "{\"name\":\"dcgm_scrapes_per_s\",\"unit\":\"scrapes per CPU-second, one thread\","
                        + "\"median\":%.0f,\"runs\":%s,\"parse_us_median\":%.1f,\"translate_us_median\":%.1f,"
                        + "\"allocated_bytes_per_scrape_median\":%.0f,\"series_per_scrape\":%d,\"body_bytes\":%d,"
                        + "\"scrapes_per_run\":%d,\"target\":1000,\"met\":%s,\"load_average\":%.2f,\"checksum\":%d}%n",
                median(perSecond),
                rounded(perSecond),
                median(parseMicros),
                median(translateMicros),
                median(allocated),
                series,
                body.length,
                scrapes,
                median(perSecond) >= 1000,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                sink);
    }

    private static Translation once(ExpositionParser parser, DcgmScrapeTranslator translator, byte[] body, int i) {
        return translator.translate(parser.parseBytes(body, Format.PROMETHEUS_TEXT), scrape(i));
    }

    private static DcgmScrape scrape(int i) {
        return new DcgmScrape("10.0.0.7:9400", "gpu-node-1", Instant.ofEpochSecond(1_700_000_000L + i));
    }

    private static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        s.sort(Double::compare);
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }

    private static String rounded(List<Double> values) {
        List<String> out = new ArrayList<>();
        values.forEach(v -> out.add(String.format(Locale.ROOT, "%.0f", v)));
        return "[" + String.join(",", out) + "]";
    }
}
