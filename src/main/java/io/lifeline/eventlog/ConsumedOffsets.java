package io.lifeline.eventlog;

import java.util.List;

/**
 * Where a Kafka consumer stands after a poll: per partition, the offset of the next record to read. Stored in the same
 * transaction as the events the poll produced, so that whoever reads the partition next resumes exactly after the
 * last stored batch ({@link OffsetStore}).
 *
 * @param consumer  the consumer group the offsets belong to
 * @param positions one per partition of the poll
 */
public record ConsumedOffsets(String consumer, List<Position> positions) {

    public ConsumedOffsets {
        positions = List.copyOf(positions);
    }

    /** The offset of the next record to read from one partition. */
    public record Position(String topic, int partition, long next) {}
}
