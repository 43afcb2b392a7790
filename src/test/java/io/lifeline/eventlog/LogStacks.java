package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.config.IngestConfig;

/** Store components outside the application (a second replica's, a benchmark's), for tests of other packages. */
public final class LogStacks {

    private LogStacks() {}

    public static EventLogWriter writer(AgroalDataSource dataSource, EventCodec codec, IngestConfig config) {
        return new EventLogWriter(dataSource, codec, config);
    }

    public static EventLogTail follower(AgroalDataSource dataSource, EventCodec codec) {
        return new EventLogTail(dataSource, codec);
    }

    public static ModelCheckpointStore checkpoints(AgroalDataSource dataSource) {
        return new ModelCheckpointStore(dataSource);
    }

    /**
     * Takes the log writers' commit-order lock on {@code c} in a transaction, as a writer does before its insert, and
     * leaves the transaction open: a writer frozen right after taking it.
     */
    public static void takeCommitOrderLock(java.sql.Connection c) throws java.sql.SQLException {
        c.setAutoCommit(false);
        try (java.sql.PreparedStatement lock = c.prepareStatement(EventLogWriter.LOCK)) {
            lock.setString(1, EventLogWriter.HOLD_TIMEOUT);
            lock.setLong(2, EventLogWriter.COMMIT_ORDER_KEY);
            lock.execute();
        }
    }

    public static void stop(EventLogWriter writer, EventLogTail follower) {
        follower.stop();
        writer.stop();
    }
}
