package io.lifeline.domain.job.straggler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.EventCodec;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDriver;
import java.time.Duration;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

/** Step-time reports through the codec and the jobs model: the straggler attributed to the membership's node. */
class JobStragglersTest {

    private final JobDriver d = new JobDriver("ml/llm");
    private final EventCodec codec = new EventCodec();

    JobStragglersTest() {
        d.jobs.configureStragglers(new StragglerConfig(Duration.ofSeconds(10), 0.2, 3, 3, 3, 64));
        d.submit("08:00:00", 1, 2, 2, 600L)
                .admit("08:00:00")
                .rendezvous("08:00:05", 1, 2, "node-a", "node-b")
                .progress("08:00:10", 1);
    }

    private void reports(int fromSecond, int windows, int slowRank) throws Exception {
        for (int w = 0; w < windows; w++) {
            for (int rank = 0; rank < 4; rank++) {
                String hms = LocalTime.of(8, 1)
                        .plusSeconds(fromSecond + 10L * w + rank)
                        .toString();
                double busy = rank == slowRank ? 0.3 : 0.1;
                String json = "{\"specversion\":\"1.0\",\"id\":\"r/step_times/" + rank + "/" + w + "-" + fromSecond
                        + "\",\"source\":\"lifeline-agent/ml/llm\",\"type\":\"trainer.step_times\",\"subject\":\"ml/llm\","
                        + "\"time\":\"" + JobDriver.DAY + "T" + (hms.length() == 5 ? hms + ":00" : hms)
                        + "Z\",\"data\":"
                        + "{\"rank\":" + rank + ",\"localRank\":" + (rank % 2) + ",\"node\":\"host-" + rank + "\","
                        + "\"steps\":50,\"toStep\":" + (100 * w) + ",\"medianSeconds\":0.31,\"busyMedianSeconds\":"
                        + busy + "}}";
                Event e = codec.decodeEvent(new ObjectMapper().readTree(json));
                assertThat(e.type()).isEqualTo(EventType.TRAINER_STEP_TIMES);
                assertThat(((TrainerData.StepTimes) e.data()).paceSeconds()).isEqualTo(busy);
                d.apply(e);
            }
        }
    }

    @Test
    void theSlowRankIsFoundOnItsMembershipNodeAndTheDrainOfferedWithinBounds() throws Exception {
        reports(0, 5, 3);
        StragglerView v = d.jobs.stragglers("ml/llm").orElseThrow();
        assertThat(v.stragglers()).hasSize(1);
        Straggler s = v.stragglers().get(0);
        assertThat(s.rank()).isEqualTo(3);
        assertThat(s.node()).as("rank 3 is node-b's second rank").isEqualTo("node-b");
        assertThat(s.gpuIndex()).isEqualTo(1);
        assertThat(v.gpuHoursLost()).isPositive();
        assertThat(v.suggestion().node()).isEqualTo("node-b");
        assertThat(v.suggestion().withinElasticBounds()).as("min 1 node of 2").isTrue();
        assertThat(d.jobs.detail("ml/llm").orElseThrow().stragglers()).isEqualTo(v);
        // Step times are telemetry: not on the timeline.
        assertThat(d.jobs.detail("ml/llm").orElseThrow().summary().name()).isEqualTo("ml/llm");
    }

    @Test
    void equalRanksAreNoStragglerAndANewRoundStartsAfresh() throws Exception {
        reports(0, 6, -1);
        assertThat(d.jobs.stragglers("ml/llm").orElseThrow().stragglers()).isEmpty();
        assertThat(d.jobs.stragglers("ml/llm").orElseThrow().windows()).isEqualTo(5);
        reports(100, 5, 0);
        assertThat(d.jobs.stragglers("ml/llm").orElseThrow().stragglers())
                .extracting(Straggler::node)
                .containsExactly("node-a");
        d.rendezvous("08:03:00", 2, 2, "node-b", "node-c");
        assertThat(d.jobs.stragglers("ml/llm").orElseThrow().stragglers()).isEmpty();
        assertThat(d.jobs.stragglers("nobody/else")).isEmpty();
    }
}
