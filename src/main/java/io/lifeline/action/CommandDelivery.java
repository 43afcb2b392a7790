package io.lifeline.action;

import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.view.StepResult;
import io.lifeline.config.ActionsConfig;
import io.lifeline.platform.Backoff;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Sends a trainer command from inside a step, confirmed: the step waits (holding no worker) until every channel
 * that serves the job took the command, trying the channels that failed again with a doubling back-off
 * ({@code lifeline.actions.command-retry-interval} up to {@code command-retry-max-interval}) until the deadline.
 * The trainers' acknowledgement, through any channel, also ends the retries: they have it. Each failed attempt is
 * recorded on the running step (attempts, last error, when the next comes); the step ends with when it was sent and
 * after how many attempts, or fails with the last reason once the deadline passes unsent.
 */
final class CommandDelivery {

    /** Whether the trainers answered the command (through the model or a channel). */
    interface Acknowledged {
        boolean get() throws Exception;
    }

    /**
     * How a delivery ended.
     *
     * @param sent    how it was sent; null when it was not
     * @param failure why not, when it was not
     */
    record Delivery(StepResult.CommandSent sent, String failure) {
        boolean ok() {
            return sent != null;
        }

        /** For a step's detail: "sent" with what it took. */
        String describe() {
            if (sent == null) {
                return failure;
            }
            String how = sent.acknowledged()
                    ? "acknowledged by the trainers"
                    : "sent to the " + String.join(", ", sent.channels());
            return how + " at " + sent.sentAt()
                    + (sent.attempts() > 1
                            ? " after " + sent.attempts() + " attempts (last error: " + sent.lastError() + ")"
                            : "");
        }
    }

    /** One command's delivery across the runs of its step; kept by the step runner. */
    private static final class State {
        final TrainerCommand command;
        final TreeSet<String> confirmed = new TreeSet<>();
        int attempts;
        String lastError;
        Instant nextAt;
        CompletableFuture<SendAttempt> inFlight;

        State(TrainerCommand command, StepResult resumed) {
            this.command = command;
            // Resumed after a restart: the attempts recorded on the running step count on.
            if (resumed instanceof StepResult.CommandPending p && command.id().equals(p.commandId())) {
                attempts = p.attempts();
                lastError = p.lastError();
            }
        }
    }

    private final TrainerCommandSink sink;
    private final Clock clock;
    private final ActionsConfig config;

    CommandDelivery(TrainerCommandSink sink, Clock clock, ActionsConfig config) {
        this.sink = sink;
        this.clock = clock;
        this.config = config;
    }

    /**
     * Delivers the command made by {@code make} (once per runner) as the body of step {@code step}: answers when it
     * was sent or the deadline passed; until then throws {@link StepRunner.Waiting}.
     */
    Delivery deliver(
            StepRunner s,
            String step,
            StepRunner.Computation<TrainerCommand> make,
            Instant deadline,
            Acknowledged acknowledged)
            throws Exception {
        State st = s.keep("delivery of " + step, () -> {
            var before = s.previous(step);
            return new State(make.get(), before == null ? null : before.result());
        });
        while (true) {
            Instant now = clock.instant();
            if (st.inFlight != null) {
                if (!st.inFlight.isDone()) {
                    if (!now.isBefore(deadline)) {
                        return new Delivery(
                                null,
                                "not confirmed by the deadline: attempt " + st.attempts + " still unanswered"
                                        + (st.lastError == null ? "" : "; last error: " + st.lastError));
                    }
                    throw new StepRunner.Waiting(until(now, deadline, config.pollInterval()), st.inFlight);
                }
                SendAttempt r = st.inFlight.join();
                st.inFlight = null;
                st.confirmed.addAll(r.confirmed());
                if (r.complete()) {
                    return sent(st, now, false);
                }
                st.lastError = describe(r.failed());
                Duration pause = backoff(st.attempts);
                st.nextAt = now.plus(pause);
                if (now.isBefore(deadline)) {
                    s.progress(
                            "attempt " + st.attempts + " failed: " + st.lastError + "; next in "
                                    + until(now, deadline, pause).toMillis() + " ms",
                            new StepResult.CommandPending(
                                    st.command.id(), st.attempts, st.lastError, now, List.copyOf(st.confirmed)));
                }
            }
            if (st.lastError != null && acknowledged.get()) {
                return sent(st, now, true);
            }
            if (!now.isBefore(deadline)) {
                return new Delivery(
                        null,
                        st.attempts == 0
                                ? "its deadline " + deadline + " passed before it was sent"
                                : "not sent by the deadline after " + st.attempts + " attempt(s): " + st.lastError
                                        + (st.confirmed.isEmpty()
                                                ? ""
                                                : " (taken by the " + String.join(", ", st.confirmed) + ")"));
            }
            if (st.nextAt != null && now.isBefore(st.nextAt)) {
                throw new StepRunner.Waiting(until(now, deadline, Duration.between(now, st.nextAt)));
            }
            st.attempts++;
            st.inFlight = sink.send(st.command, Set.copyOf(st.confirmed)).toCompletableFuture();
        }
    }

    private static Delivery sent(State st, Instant at, boolean acknowledged) {
        return new Delivery(
                new StepResult.CommandSent(
                        st.command.id(),
                        st.command.type().wire(),
                        at,
                        st.attempts,
                        List.copyOf(st.confirmed),
                        st.lastError,
                        acknowledged),
                null);
    }

    /** The pause after the n-th failed attempt: the first interval, doubled each time, at most the longest. */
    Duration backoff(int failedAttempts) {
        return Backoff.fromSettings(config.commandRetryInterval(), config.commandRetryMaxInterval())
                .delay(failedAttempts);
    }

    private static String describe(Map<String, String> failed) {
        return failed.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining("; "));
    }

    /** The pause before a re-check: the interval, or less when the deadline comes sooner (so it is met on time). */
    static Duration until(Instant now, Instant deadline, Duration interval) {
        Duration left = Duration.between(now, deadline);
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        return left.compareTo(interval) < 0 ? left : interval;
    }
}
