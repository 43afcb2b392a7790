package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.ModelReads;
import io.lifeline.domain.SavedModel;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.SavedFleet;
import io.lifeline.domain.job.SavedJobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bytes of a model checkpoint give back the saved model exactly: every record, the gauges never reported (NaN), the
 * counters never reported, absent values, times to the nanosecond; a fresh model restored from the decoded bytes reads
 * like the model that was saved.
 */
class ModelCheckpointCodecTest {

    private static final Instant START = Instant.parse("2026-01-31T12:00:00Z");
    private final ModelCheckpointCodec codec = new ModelCheckpointCodec();

    @Test
    void aSimulatedFleetDecodesToTheModelThatWasSaved() throws IOException {
        Clock clock = Clock.fixed(START.plus(Duration.ofHours(2)), ZoneOffset.UTC);
        Fleet fleet = new Fleet(clock);
        LifelineModel model = new LifelineModel(fleet, clock);
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), START);
        sim.advanceTo(START.plus(Duration.ofHours(2))).forEach(model::apply);
        // A GPU that reported nothing but its identity: every gauge NaN, every counter unset.
        model.apply(new Event(
                "bare",
                "test",
                EventType.GPU_SAMPLE,
                "bare-node",
                START.plusSeconds(5),
                new GpuData.Sample(
                        "GPU-bare", 0, null, null, null, null, null, null, null, null, null, null, null, null, null)));
        SavedModel saved = new SavedModel(fleet.save(), model.jobs().save());

        SavedModel decoded = codec.decode(codec.encode(saved));

        assertThat(decoded).isEqualTo(saved);
        assertThat(decoded.fleet().nodes())
                .anySatisfy(n -> assertThat(n.gpus()).anySatisfy(g -> {
                    assertThat(g.uuid()).isEqualTo("GPU-bare");
                    assertThat(g.temperature()).isNaN();
                }));
        Fleet restoredFleet = new Fleet(clock);
        LifelineModel restored = new LifelineModel(restoredFleet, clock);
        restoredFleet.restore(decoded.fleet());
        restored.jobs().restore(decoded.jobs());
        ModelReads.of(fleet, model.jobs()).assertSameAs(ModelReads.of(restoredFleet, restored.jobs()), "decoded");
    }

    @Test
    void anEmptyModelRoundTrips() throws IOException {
        SavedModel empty = new SavedModel(
                new SavedFleet(0, List.of(), List.of()),
                new SavedJobs(List.of(), List.of(), List.of(), List.of(), 0, 0));
        assertThat(codec.decode(codec.encode(empty))).isEqualTo(empty);
    }

    @Test
    void bytesThatAreNotACheckpointAreRefused() {
        assertThatThrownBy(() -> codec.decode("not a checkpoint".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);
    }
}
