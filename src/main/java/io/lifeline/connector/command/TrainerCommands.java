package io.lifeline.connector.command;

import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * The application's one {@link TrainerCommandSink}: sends each command to every channel that is on: the Kafka topic
 * (when Kafka is configured), the queue of agents polling over HTTP (always), and the demo fleet's trainers (for its
 * jobs while it runs). A command past its deadline is sent nowhere. A failing channel does not keep the command from
 * the others; the same id sent again is harmless (receivers dedupe).
 */
@ApplicationScoped
public class TrainerCommands implements TrainerCommandSink {

    private static final Logger LOG = Logger.getLogger(TrainerCommands.class);

    private final KafkaCommandSink kafka;
    private final AgentCommandQueue agents;
    private final DemoCommandSink demo;
    private final Clock clock;

    TrainerCommands(KafkaCommandSink kafka, AgentCommandQueue agents, DemoCommandSink demo, Clock clock) {
        this.kafka = kafka;
        this.agents = agents;
        this.demo = demo;
        this.clock = clock;
    }

    @Override
    public void send(TrainerCommand command) {
        if (command.deadline() != null && !command.deadline().isAfter(clock.instant())) {
            LOG.infof("Command %s (%s) for %s not sent: its deadline %s has passed", command.id(), command.type().wire(),
                    command.job(), command.deadline());
            return;
        }
        if (kafka.enabled()) {
            attempt("Kafka", command, () -> kafka.send(command));
        }
        attempt("agent queue", command, () -> agents.offer(command));
        if (demo.accepts(command)) {
            attempt("demo fleet", command, () -> demo.send(command));
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
