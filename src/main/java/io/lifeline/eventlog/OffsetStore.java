package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kafka offsets stored with the events they produced ({@code ingest_offsets}, written by {@link EventLogWriter}):
 * read when a replica is given partitions, so it starts after the last batch any replica stored.
 */
@ApplicationScoped
public class OffsetStore {

    static final String UPSERT = """
            INSERT INTO ingest_offsets (consumer, topic, partition, next_offset)
            SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::bigint[])
            ON CONFLICT (consumer, topic, partition)
            DO UPDATE SET next_offset = GREATEST(ingest_offsets.next_offset, EXCLUDED.next_offset)""";

    private final AgroalDataSource dataSource;

    OffsetStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The stored next offset of each of {@code partitions} ("topic" and partition number) that has one. */
    public Map<ConsumedOffsets.Position, Long> load(String consumer, Collection<ConsumedOffsets.Position> partitions)
            throws SQLException {
        Map<ConsumedOffsets.Position, Long> found = new HashMap<>();
        if (partitions.isEmpty()) {
            return found;
        }
        List<String> topics = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (ConsumedOffsets.Position p : partitions) {
            topics.add(p.topic());
            numbers.add(p.partition());
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT o.topic, o.partition, o.next_offset FROM ingest_offsets o"
                                + " JOIN unnest(?::text[], ?::int[]) AS w(topic, partition) USING (topic, partition)"
                                + " WHERE o.consumer = ?")) {
            ps.setArray(1, c.createArrayOf("text", topics.toArray()));
            ps.setArray(2, c.createArrayOf("integer", numbers.toArray()));
            ps.setString(3, consumer);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(new ConsumedOffsets.Position(rs.getString(1), rs.getInt(2), 0), rs.getLong(3));
                }
            }
        }
        return found;
    }

    /** Adds the upsert of {@code offsets} (merged by partition, highest wins) to the transaction of {@code c}. */
    static void write(Connection c, List<ConsumedOffsets> offsets) throws SQLException {
        Map<List<Object>, Long> merged = new HashMap<>();
        for (ConsumedOffsets o : offsets) {
            for (ConsumedOffsets.Position p : o.positions()) {
                merged.merge(List.of(o.consumer(), p.topic(), p.partition()), p.next(), Math::max);
            }
        }
        if (merged.isEmpty()) {
            return;
        }
        int n = merged.size();
        String[] consumers = new String[n];
        String[] topics = new String[n];
        Integer[] partitions = new Integer[n];
        Long[] next = new Long[n];
        int i = 0;
        for (Map.Entry<List<Object>, Long> e : merged.entrySet()) {
            consumers[i] = (String) e.getKey().get(0);
            topics[i] = (String) e.getKey().get(1);
            partitions[i] = (Integer) e.getKey().get(2);
            next[i] = e.getValue();
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            ps.setArray(1, c.createArrayOf("text", consumers));
            ps.setArray(2, c.createArrayOf("text", topics));
            ps.setArray(3, c.createArrayOf("integer", partitions));
            ps.setArray(4, c.createArrayOf("bigint", next));
            ps.executeUpdate();
        }
    }
}
