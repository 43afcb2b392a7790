package io.lifeline.connector.command;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * The application's one {@link TrainerCommandSink}: sends each command to every {@link CommandChannel} that accepts
 * it: the Kafka topic (when Kafka is configured), the queue of agents polling over HTTP (always), and the demo
 * fleet's trainers (for its jobs while it runs; the demo plugs in through the same port). A command past its
 * deadline is sent nowhere. A failing channel does not keep the command from the others; the same id sent again is
 * harmless (receivers dedupe).
 */
@ApplicationScoped
public class TrainerCommands implements TrainerCommandSink {

    private static final Logger LOG = Logger.getLogger(TrainerCommands.class);

    private final Instance<CommandChannel> channels;
    private final Clock clock;

    TrainerCommands(@Any Instance<CommandChannel> channels, Clock clock) {
        this.channels = channels;
        this.clock = clock;
    }

    @Override
    public void send(TrainerCommand command) {
        if (command.deadline() != null && !command.deadline().isAfter(clock.instant())) {
            LOG.infof("Command %s (%s) for %s not sent: its deadline %s has passed", command.id(), command.type().wire(),
                    command.job(), command.deadline());
            return;
        }
        for (CommandChannel channel : channels) {
            if (channel.accepts(command)) {
                attempt(channel.name(), command, () -> channel.send(command));
            }
        }
    }

    private static void attempt(String channel, TrainerCommand c, Runnable send) {
        try {
            send.run();
        } catch (RuntimeException e) {
            LOG.warnf("Command %s (%s) for %s not sent to the %s: %s", c.id(), c.type().wire(), c.job(), channel, e.toString());
        }
    }
}
