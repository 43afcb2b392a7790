package io.lifeline.demo.runtime;

import io.lifeline.runtime.IngestOpened;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Starts the demo fleet once ingest is open, when {@code lifeline.demo.enabled} is true, with its co-location window
 * and, while no objective is configured or stored, its two goodput objectives. The launcher turns it on for the
 * zero-configuration start (embedded database, nothing else configured); otherwise it is off.
 */
@ApplicationScoped
public class DemoStartup {

    private static final Logger LOG = Logger.getLogger(DemoStartup.class);

    private final DemoConfig config;
    private final DemoRunner runner;
    private final DemoColocation colocation;
    private final DemoObjectives objectives;

    DemoStartup(DemoConfig config, DemoRunner runner, DemoColocation colocation, DemoObjectives objectives) {
        this.config = config;
        this.runner = runner;
        this.colocation = colocation;
        this.objectives = objectives;
    }

    void onOpened(@Observes IngestOpened opened) {
        if (config.enabled().orElse(false)) {
            runner.start();
            colocation.install(runner.runStart());
            try {
                if (objectives.install()) {
                    LOG.info("Demo objectives research-ettr and vision-ettr in force (nothing configured)");
                }
            } catch (RuntimeException e) {
                // The fleet runs without them: the objective store may be unreachable for a moment.
                LOG.warnf("Demo objectives not installed: %s", e.getMessage());
            }
            LOG.infof("Demo fleet started (speed %.1fx); turn it off with lifeline.demo.enabled=false", config.speed());
        }
    }
}
