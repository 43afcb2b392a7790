package io.lifeline.action;

import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Used until a command connector is configured: commands are logged, and their waits time out. */
@ApplicationScoped
@DefaultBean
public class NoCommandSink implements TrainerCommandSink {

    private static final Logger LOG = Logger.getLogger(NoCommandSink.class);

    @Override
    public void send(TrainerCommand command) {
        LOG.warnf("No trainer command connector: %s for %s not delivered", command.type().wire(), command.job());
    }
}
