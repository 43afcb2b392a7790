package io.lifeline.policy;

import io.lifeline.config.RecoveryConfig;
import java.time.Duration;
import java.util.Optional;

/** The recovery settings at their documented defaults, for rigs built without the application's configuration. */
final class RecoveryConfigForTests {

    private RecoveryConfigForTests() {}

    static RecoveryConfig defaults() {
        return new RecoveryConfig() {
            @Override
            public int workloadErrorAttempts() {
                return 3;
            }

            @Override
            public int noProgressAttempts() {
                return 3;
            }

            @Override
            public int nodeAttempts() {
                return 2;
            }

            @Override
            public Duration inPlaceDeadline() {
                return Duration.ofMinutes(10);
            }

            @Override
            public Duration excludeDeadline() {
                return Duration.ofMinutes(15);
            }

            @Override
            public Duration stopDeadline() {
                return Duration.ofMinutes(10);
            }

            @Override
            public Duration hold() {
                return Duration.ofSeconds(30);
            }

            @Override
            public Optional<Integer> failureBudget() {
                return Optional.empty();
            }

            @Override
            public Optional<Integer> plannedBudget() {
                return Optional.empty();
            }
        };
    }
}
