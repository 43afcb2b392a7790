package io.lifeline.demo.runtime;

import io.lifeline.runtime.IngestOpened;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Starts the demo fleet once ingest is open, when {@code lifeline.demo.enabled} is true. The launcher turns it on
 * for the zero-configuration start (embedded database, nothing else configured); otherwise it is off.
 */
@ApplicationScoped
public class DemoStartup {

    private static final Logger LOG = Logger.getLogger(DemoStartup.class);

    private final DemoConfig config;
    private final DemoRunner runner;
    private final DemoColocation colocation;

    DemoStartup(DemoConfig config, DemoRunner runner, DemoColocation colocation) {
        this.config = config;
        this.runner = runner;
        this.colocation = colocation;
    }

    void onOpened(@Observes IngestOpened opened) {
        if (config.enabled().orElse(false)) {
            runner.start();
            colocation.install(runner.runStart());
            LOG.infof("Demo fleet started (speed %.1fx); turn it off with lifeline.demo.enabled=false", config.speed());
        }
    }
}
