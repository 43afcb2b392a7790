package io.lifeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;

/** Store components outside the application, on a data source of the caller's (their constructors are the container's). */
public final class Stores {

    private Stores() {
    }

    public static EventLogReplay replay(AgroalDataSource db) {
        return new EventLogReplay(db, new EventCodec());
    }

    public static ModelCheckpointStore checkpoints(AgroalDataSource db) {
        return new ModelCheckpointStore(db);
    }
}
