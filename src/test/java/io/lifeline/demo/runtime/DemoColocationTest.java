package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.Scenario;
import io.lifeline.domain.policy.colocation.LendingWindow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DemoColocationTest {

    private static final Instant START = Instant.parse("2026-01-05T09:00:00Z");

    @Test
    void theDemoWindowOpensInTheFirstMinutesOnAPoolOfTheScenarioAndClosesAgain() {
        LendingWindow w = DemoColocation.window(START);
        assertThat(w.schedule().isOpen(START.plus(Duration.ofMinutes(3)))).isFalse();
        assertThat(w.schedule().isOpen(START.plus(Duration.ofMinutes(4)))).isTrue();
        assertThat(w.schedule().isOpen(START.plus(Duration.ofMinutes(9)))).isFalse();
        assertThat(w.schedule().isOpen(START.plus(Duration.ofMinutes(16)))).isTrue();
        Scenario s = new ScenarioParser().loadDefault();
        assertThat(s.pools()).extracting(Scenario.Pool::name).contains(w.pool());
        assertThat(s.jobs())
                .filteredOn(j -> j.pools().contains(w.pool()))
                .allSatisfy(j -> assertThat(j.minNodes()).isLessThan(j.maxNodes()))
                .hasSize(3);
    }
}
