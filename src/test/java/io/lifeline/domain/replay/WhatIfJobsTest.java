package io.lifeline.domain.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.testing.Fixtures;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job of a played trace as what-if input, and its what-if. */
class WhatIfJobsTest {

    private static final String JOB = "philly/application_1506638472019_14213";

    @Test
    void theReplayTrainsFromTheFirstRunNotTheSubmission() {
        Trace trace = PhillyCsvReader.read(Fixtures.text("traces/philly_multi_attempt_jobs_restarts.csv"));
        Jobs jobs = TracePlayer.play(trace);
        Instant end = trace.events().get(trace.events().size() - 1).time();
        WhatIfJob job = WhatIfJobs.of(jobs, JOB, end).orElseThrow();
        // submitted 01:51:49, first attempt 01:57:08: the five minutes queued are not training
        assertThat(job.start()).isEqualTo(Instant.parse("2017-10-07T01:57:08Z"));
        assertThat(job.interruptions()).hasSize(3);

        // A trace records no capacity type or price: the rows say so instead of failing.
        WhatIfReport r = WhatIf.run(
                job,
                true,
                new WhatIfRequest(List.of(900.0), false, null, null, null, List.of(false), List.of()),
                SpotPrices.NONE,
                InterruptionRates.NONE,
                new WhatIfLimits(24, 2_000_000, 60),
                () -> false,
                Clock.fixed(end, ZoneOffset.UTC));
        WhatIfRow actual = r.rows().get(0);
        WhatIfRow replay = r.rows().get(1);
        assertThat(actual.lostCost()).isNull();
        // attempts of 68, 50 and 46 s were all lost; saving every 900 s saves none of them, and loses nothing more
        assertThat(actual.lostReworkHours() * 3600).isCloseTo(164, org.assertj.core.data.Offset.offset(1.0));
        assertThat(replay.lostReworkHours() * 3600).isCloseTo(164, org.assertj.core.data.Offset.offset(1.0));
    }
}
