package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.ActionsConfig;

/** A leader election outside the application, for tests of other packages (its constructor is the container's). */
public final class Leaderships {

    private Leaderships() {}

    public static Leadership of(AgroalDataSource dataSource, ActionsConfig config) {
        return new Leadership(dataSource, config);
    }

    public static void close(Leadership leadership) {
        leadership.close();
    }
}
