package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.testing.MixedEventStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * CPU time of decoding the ingest benchmark's Kafka records (structured-mode CloudEvents, 90 % {@code gpu.sample}) on
 * one thread, read from the thread's own CPU clock so that the machine's other load counts as little as it can:
 * {@code bench/decode.sh [rounds] [events]}. Prints one line per round (microseconds per event) and the best and median
 * round last.
 */
public final class DecodeCpuTime {

    private DecodeCpuTime() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        RecordDecoder decoder = new RecordDecoder(new EventCodec());
        MixedEventStream stream = new MixedEventStream("decode");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            MixedEventStream.Encoded e = stream.next();
            records.add(new ConsumerRecord<>("bench", 0, i, e.key(), e.json()));
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<Double> perEvent = new ArrayList<>();
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            long before = cpu.getCurrentThreadCpuTime();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                sink += decoder.decode(record).id().length();
            }
            double us = (cpu.getCurrentThreadCpuTime() - before) / 1e3 / n;
            perEvent.add(us);
            System.out.printf("round %d: %.3f us/event%n", r + 1, us);
        }
        if (sink == 0) {
            throw new IllegalStateException("nothing decoded");
        }
        List<Double> sorted = new ArrayList<>(perEvent);
        sorted.sort(Double::compare);
        System.out.printf(
                "best %.3f us/event, median %.3f us/event (%d rounds of %d events)%n",
                sorted.get(0), sorted.get(sorted.size() / 2), rounds, n);
    }
}
