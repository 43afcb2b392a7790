package io.lifeline.connector.outbound.command;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.platform.LogContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * The application's one {@link TrainerCommandSink}: sends each command to every {@link CommandChannel} that accepts
 * it: the Kafka topic (when Kafka is configured), the queue of agents polling over HTTP (always), and the demo
 * fleet's trainers (for its jobs while it runs; the demo plugs in through the same port). An attempt answers which
 * channels took the command and why the others did not, so the action step can try those again; a failing channel
 * does not keep the command from the others. A command past its deadline is sent nowhere.
 */
@ApplicationScoped
public class TrainerCommands implements TrainerCommandSink {

    private static final Logger LOG = Logger.getLogger(TrainerCommands.class);

    private final Iterable<CommandChannel> channels;
    private final Clock clock;

    @Inject
    TrainerCommands(@Any Instance<CommandChannel> channels, Clock clock) {
        this((Iterable<CommandChannel>) channels, clock);
    }

    TrainerCommands(Iterable<CommandChannel> channels, Clock clock) {
        this.channels = channels;
        this.clock = clock;
    }

    /** A channel's answer to one attempt: null error when it took the command. */
    private record Answer(String channel, String error) {}

    @Override
    public CompletionStage<SendAttempt> send(TrainerCommand command, Set<String> confirmed) {
        // The command's job (beside the action sending it) on what the channels log, and on the answers, which are
        // read on whichever thread completes the last one.
        try (LogContext about = LogContext.job(command.job())) {
            return sendAbout(command, confirmed, LogContext.current());
        }
    }

    private CompletionStage<SendAttempt> sendAbout(
            TrainerCommand command, Set<String> confirmed, LogContext.Snapshot context) {
        if (command.deadline() != null && !command.deadline().isAfter(clock.instant())) {
            LOG.infof(
                    "Command %s (%s) for %s not sent: its deadline %s has passed",
                    command.id(), command.type().wire(), command.job(), command.deadline());
            return CompletableFuture.completedFuture(new SendAttempt(
                    Set.of(), Map.of("every channel", "its deadline " + command.deadline() + " has passed")));
        }
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (CommandChannel channel : channels) {
            if (channel.accepts(command) && !confirmed.contains(channel.name())) {
                answers.add(attempt(channel, command));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(all -> {
                    try (LogContext about = context.open()) {
                        return answered(command, answers);
                    }
                });
    }

    private static SendAttempt answered(TrainerCommand command, List<CompletableFuture<Answer>> answers) {
        Set<String> took = new HashSet<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (CompletableFuture<Answer> f : answers) {
            Answer a = f.join();
            if (a.error() == null) {
                took.add(a.channel());
            } else {
                failed.put(a.channel(), a.error());
                LOG.warnf(
                        "Command %s (%s) for %s not sent to the %s: %s",
                        command.id(), command.type().wire(), command.job(), a.channel(), a.error());
            }
        }
        return new SendAttempt(took, failed);
    }

    @Override
    public Optional<CommandAckView> acknowledgement(String job, String commandId) {
        for (CommandChannel channel : channels) {
            try {
                Optional<CommandAckView> ack = channel.acknowledgement(job, commandId);
                if (ack.isPresent()) {
                    return ack;
                }
            } catch (RuntimeException e) {
                LOG.debugf(
                        "The %s could not say whether %s was acknowledged: %s",
                        channel.name(), commandId, e.toString());
            }
        }
        return Optional.empty();
    }

    private static CompletableFuture<Answer> attempt(CommandChannel channel, TrainerCommand c) {
        CompletionStage<Void> sent;
        try {
            sent = channel.send(c);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.toCompletableFuture()
                .handle((ok, error) -> new Answer(channel.name(), error == null ? null : reason(error)));
    }

    /** The failure and, when it wraps another, what was underneath (the database's or the broker's words). */
    static String reason(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return describe(e) + (root == e ? "" : " (" + describe(root) + ")");
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null
                ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
