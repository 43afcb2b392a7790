package io.lifeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.config.IngestConfig;

/** Store components outside the application (a second replica's, a benchmark's), for tests of other packages. */
public final class LogStacks {

    private LogStacks() {
    }

    public static EventLogWriter writer(AgroalDataSource dataSource, EventCodec codec, IngestConfig config) {
        return new EventLogWriter(dataSource, codec, config);
    }

    public static EventLogTail follower(AgroalDataSource dataSource, EventCodec codec) {
        return new EventLogTail(dataSource, codec);
    }

    public static ModelCheckpointStore checkpoints(AgroalDataSource dataSource) {
        return new ModelCheckpointStore(dataSource);
    }

    public static void stop(EventLogWriter writer, EventLogTail follower) {
        follower.stop();
        writer.stop();
    }
}
