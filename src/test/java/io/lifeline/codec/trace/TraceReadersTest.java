package io.lifeline.codec.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.TracePlayer;
import io.lifeline.domain.replay.TraceRejection;
import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trace readers: bad records refused with their line and reason, the rest kept; the shapes the traces ship in. */
class TraceReadersTest {

    private static String fixture(String name) throws IOException {
        return Files.readString(Fixtures.path("traces").resolve(name));
    }

    @Test
    void phillyCsvRefusesBadRowsByLineAndKeepsTheRest() throws IOException {
        List<String> lines = new java.util.ArrayList<>(
                fixture("philly_multi_attempt_jobs_restarts.csv").lines().toList());
        // line 3 (the second attempt of 14199) gets a bad time, and a row with an unknown event type is appended
        lines.set(2, lines.get(2).replace("2017-10-09 06:53:12", "2017-10-09 06:53"));
        lines.add("application_x,8,2017-10-07 01:11:39,0,2017-10-07 01:12:09,2017-10-07 01:13:23,exploded,n/a,,,74");
        lines.add("application_y,zero,2017-10-07 01:11:39,0,2017-10-07 01:12:09,2017-10-07 01:13:23,"
                + "final_attempt_completed_status_Pass,n/a,,,74");
        Trace t = TraceReaders.read(TraceFormat.PHILLY_CSV, String.join("\n", lines));

        assertThat(t.rejected()).extracting(TraceRejection::line).containsExactly(3, 32, 33);
        assertThat(t.rejected().get(0).reason()).contains("attempt_end").contains("yyyy-MM-dd HH:mm:ss");
        assertThat(t.rejected().get(1).reason()).contains("event_type 'exploded'");
        assertThat(t.rejected().get(2).reason()).contains("num_gpus");
        Jobs jobs = TracePlayer.play(t);
        // the twelve jobs are kept; 14199 lost its last attempt, so it keeps only its first and has not finished
        assertThat(t.jobs()).hasSize(12);
        assertThat(jobs.detail("philly/application_1506638472019_14164")
                        .orElseThrow()
                        .summary()
                        .interruptions())
                .isEqualTo(2);
    }

    @Test
    void phillyJsonReadsAnArrayAndOneRecordPerLine() throws IOException {
        String entry = fixture("philly_cluster_job_log_example_entry.json");
        String compact = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(entry)
                .toString();
        String other = compact.replace("application_1506638472019_14199", "application_1506638472019_99999");
        String broken =
                compact.replace("\"2017-10-07 01:13:30\"", "\"yesterday\"").replace("14199", "77777");

        Trace array =
                TraceReaders.read(TraceFormat.PHILLY_JSON, "[\n" + compact + ",\n" + other + ",\n" + broken + "\n]");
        assertThat(array.jobs())
                .containsExactly("philly/application_1506638472019_14199", "philly/application_1506638472019_99999");
        assertThat(array.rejected()).singleElement().satisfies(r -> {
            assertThat(r.line()).isEqualTo(4);
            assertThat(r.reason())
                    .contains("application_1506638472019_77777")
                    .contains("attempt 1")
                    .contains("start_time");
        });

        Trace ndjson = TraceReaders.read(TraceFormat.PHILLY_JSON, compact + "\n{not json\n" + other + "\n");
        assertThat(ndjson.jobs()).hasSize(2);
        assertThat(ndjson.rejected()).extracting(TraceRejection::line).containsExactly(2);

        Jobs jobs = TracePlayer.play(array);
        IncidentView i = jobs.incidents("philly/application_1506638472019_99999")
                .orElseThrow()
                .get(0);
        assertThat(i.downtimeMillis()).isEqualTo(7_000);
    }

    @Test
    void opt175bRefusesUnknownRowsAndKeepsTheRest() throws IOException {
        String text = fixture("opt175b_chronicles_dated_events.csv")
                        .replace("2021-12-06,,node_failure_burst", "2021-12-32,,node_failure_burst")
                + "2022-01-07,,meteor_strike,\"none\",,,x.md,1\n";
        Trace t = TraceReaders.read(TraceFormat.OPT175B, text);
        assertThat(t.rejected()).extracting(TraceRejection::line).containsExactly(5, 9);
        assertThat(t.rejected().get(0).reason()).contains("2021-12-32");
        assertThat(t.rejected().get(1).reason()).contains("meteor_strike");
        assertThat(TracePlayer.play(t)
                        .detail("metaseq/opt-175b-12")
                        .orElseThrow()
                        .summary()
                        .interruptions())
                .isEqualTo(49); // 50 less the refused burst
    }

    @Test
    void lifelineHistoryIsReadBackFromItsOwnCloudEvents() throws IOException {
        Trace philly = TraceReaders.read(TraceFormat.PHILLY_JSON, fixture("philly_cluster_job_log_example_entry.json"));
        io.lifeline.codec.EventCodec codec = new io.lifeline.codec.EventCodec();
        StringBuilder ndjson = new StringBuilder();
        for (Event e : philly.events()) {
            ndjson.append(codec.toJson(codec.encodeEvent(e))).append('\n');
        }
        ndjson.append("{\"specversion\":\"1.0\"}\n");
        Trace back = TraceReaders.read(TraceFormat.LIFELINE, ndjson.toString());
        assertThat(back.events()).hasSameSizeAs(philly.events());
        assertThat(back.events()).extracting(Event::type).contains(EventType.TRAINER_WORKER_FAILED);
        assertThat(back.rejected())
                .singleElement()
                .satisfies(r -> assertThat(r.line()).isEqualTo(philly.events().size() + 1));
        assertThat(TracePlayer.play(back)
                        .incidents("philly/application_1506638472019_14199")
                        .orElseThrow())
                .hasSize(1);
    }
}
