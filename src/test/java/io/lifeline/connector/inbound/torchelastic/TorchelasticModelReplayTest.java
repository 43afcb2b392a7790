package io.lifeline.connector.inbound.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.Translation;
import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.testing.Fixtures;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The real torchelastic lines of pytorch/pytorch#64990 (a c10d run of world size 2 whose rank 1 failed on
 * ip-172-30-2-79 after the agent had restarted the workers 3 times), replayed into the model: the job shows the
 * failure, the restart count and who was in the job.
 */
class TorchelasticModelReplayTest {

    private static final String JOB = "team-a/c10d-echo";
    private static final Instant T0 = Instant.parse("2021-09-14T10:00:00Z");

    @Test
    void fixtureGivesTheFailedRankTheRestartsAndTheMembership() {
        Clock clock = Clock.fixed(T0.plusSeconds(120), ZoneOffset.UTC);
        LifelineModel model = new LifelineModel(new Fleet(clock), clock);
        // What the fixture's metadata describes: group_world_size 2, one rank per node, rank 1 on ip-172-30-2-79.
        model.apply(event(
                "n1",
                EventType.NODE_REGISTERED,
                "ip-172-30-2-79",
                T0,
                new NodeData.Registered("pool-a", CapacityType.ON_DEMAND, null, null, 1, null)));
        model.apply(event(
                "n2",
                EventType.NODE_REGISTERED,
                "ip-172-30-2-80",
                T0,
                new NodeData.Registered("pool-a", CapacityType.ON_DEMAND, null, null, 1, null)));
        model.apply(event(
                "j1",
                EventType.JOB_SUBMITTED,
                JOB,
                T0,
                new JobData.Submitted("team-a", null, null, new ElasticPolicy(1, 2, 1, 3), 1, null)));
        model.apply(event(
                "r1",
                EventType.TRAINER_RENDEZVOUS,
                JOB,
                T0.plusSeconds(5),
                new TrainerData.Rendezvous(
                        "1234",
                        1,
                        2,
                        List.of(
                                new TrainerData.Participant("ip-172-30-2-80", 0, 1),
                                new TrainerData.Participant("ip-172-30-2-79", 1, 1)))));
        model.apply(event(
                "p1", EventType.TRAINER_PROGRESS, JOB, T0.plusSeconds(10), new TrainerData.Progress(10, null, null)));

        TorchelasticTranslator translator =
                new TorchelasticTranslator(JobResolver.of(Map.of("1234", new JobBinding(JOB, 1))));
        Instant received = T0.plusSeconds(48);
        for (String line : Fixtures.text("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl")
                .lines()
                .toList()) {
            Translation t = translator.translate(line, received);
            assertThat(t.rejections()).isEmpty();
            t.events().forEach(model::apply);
        }

        var detail = model.jobs().detail(JOB).orElseThrow();
        JobSummary job = detail.summary();
        // The agent's own count says the workers were restarted 3 times; Lifeline saw one of those restarts.
        assertThat(detail.agentRestarts()).isEqualTo(3);
        assertThat(job.restarts()).isEqualTo(1);
        assertThat(job.state()).isEqualTo(JobState.RECOVERING);
        List<IncidentView> incidents = model.jobs().incidents(JOB).orElseThrow();
        assertThat(incidents).singleElement().satisfies(i -> {
            assertThat(i.nodes()).contains("ip-172-30-2-79");
            assertThat(i.openedAt()).isEqualTo(received);
        });
        assertThat(model.jobs().membership(JOB).orElseThrow().current().worldSize())
                .isEqualTo(2);
        assertThat(model.jobs().jobsOn("ip-172-30-2-79")).containsExactly(JOB);
    }

    /**
     * Two agents on one machine (torch 2.13, recorded by this project): both report host name {@code localhost}; the
     * node ids in their join messages tell them apart, so the job has two placements and its whole world size.
     */
    @Test
    void twoAgentsSharingAHostNameAreTwoPlacements() {
        Clock clock = Clock.fixed(T0.plusSeconds(120), ZoneOffset.UTC);
        LifelineModel model = new LifelineModel(new Fleet(clock), clock);
        String job = "team-a/two-on-one-host";
        model.apply(event(
                "j1",
                EventType.JOB_SUBMITTED,
                job,
                T0,
                new JobData.Submitted("team-a", null, null, new ElasticPolicy(2, 2, 1, 2), 0, null)));
        TorchelasticTranslator translator =
                new TorchelasticTranslator(JobResolver.of(Map.of("cap1", new JobBinding(job, 1))));
        int rounds = 0;
        for (String line : Fixtures.text("torchelastic/events_torch213_two_agents_one_host_c10d.jsonl")
                .lines()
                .toList()) {
            Translation t = translator.translate(line, T0.plusSeconds(10));
            assertThat(t.rejections()).isEmpty();
            for (Event e : t.events()) {
                if (e.type() == EventType.TRAINER_RENDEZVOUS) {
                    rounds++;
                    TrainerData.Rendezvous r = (TrainerData.Rendezvous) e.data();
                    assertThat(r.worldSize()).isEqualTo(2);
                    assertThat(r.participants())
                            .extracting(TrainerData.Participant::node)
                            .containsExactly("localhost_3539_0", "localhost_3540_0");
                }
                model.apply(e);
            }
        }
        assertThat(rounds).isEqualTo(2);
        var membership = model.jobs().membership(job).orElseThrow().current();
        assertThat(membership.worldSize()).isEqualTo(2);
        assertThat(membership.participants())
                .extracting(p -> p.node())
                .containsExactly("localhost_3539_0", "localhost_3540_0");
        assertThat(model.jobs().jobsOn("localhost_3540_0")).containsExactly(job);
    }

    private static final String RELAUNCH = "torchelastic/events_torch213_relaunch_same_rdzv_id.jsonl";
    private static final String RELAUNCHED = "ml/relaunch";

    /**
     * A job stopped and launched again with the same rdzv id (torch 2.13 through the agent wrapper, recorded by this
     * project: one agent on node-a stopped by SIGTERM after its emergency save at step 37, then one on node-b that
     * restored it). The new launch numbers its round 0 again; Lifeline shows that round, its world size and its node,
     * and every line sent twice is one event.
     */
    @Test
    void aRelaunchWithTheSameRdzvIdShowsItsOwnRoundWorldSizeAndPlacement() {
        assertTheRelaunchIsShown(UnaryOperator.identity());
    }

    /**
     * The same lines as torchelastic prints them, without the wrapper's launch id and times (a log shipper forwarding
     * the console handler's output), stamped when they arrive: the agents' node ids, with a new pid, tell the
     * launches apart.
     */
    @Test
    void withoutTheWrappersLaunchIdTheAgentsNodeIdsTellTheLaunchesApart() {
        assertTheRelaunchIsShown(line -> line.replaceAll(", \"lifeline_launch\": \"[0-9a-f]+\"", "")
                .replaceAll("\"timestamp\": [0-9]+", "\"timestamp\": 0")
                .replace(", \"timestamp\": 0}", "}"));
    }

    private static void assertTheRelaunchIsShown(UnaryOperator<String> asSent) {
        Relaunch r = new Relaunch(asSent);
        r.firstLaunch(true);
        assertThat(r.model.jobs().membership(RELAUNCHED).orElseThrow().current().participants())
                .extracting(TrainerData.Participant::node)
                .containsExactly("node-a");
        assertThat(r.model.jobs().detail(RELAUNCHED).orElseThrow().summary().state())
                .isEqualTo(JobState.RECOVERING);

        r.secondLaunch();

        var membership = r.model.jobs().membership(RELAUNCHED).orElseThrow();
        assertThat(membership.current().round()).isZero();
        assertThat(membership.current().participants())
                .extracting(TrainerData.Participant::node)
                .containsExactly("node-b");
        assertThat(membership.worldSize()).isEqualTo(1);
        assertThat(membership.rounds()).extracting(RendezvousRound::round).containsExactly(0, 0);
        assertThat(r.model.jobs().jobsOn("node-b")).containsExactly(RELAUNCHED);
        assertThat(r.model.jobs().jobsOn("node-a")).isEmpty();
        var detail = r.model.jobs().detail(RELAUNCHED).orElseThrow();
        assertThat(detail.summary().state()).isEqualTo(JobState.RUNNING);
        assertThat(detail.summary().lastStep()).isEqualTo(58);

        // Every line of the second launch sent again: the same events, each dropped as a duplicate.
        long before = detail.duplicatesDropped();
        int events = r.send(r.secondLaunchLines);
        assertThat(events).isPositive();
        assertThat(r.model.jobs().detail(RELAUNCHED).orElseThrow().duplicatesDropped())
                .isEqualTo(before + events);
        assertThat(r.model.jobs().membership(RELAUNCHED).orElseThrow().rounds()).hasSize(2);
    }

    /**
     * The first launch's last line (its agent FAILED as it exited, at 01:02:10.745) reaching Lifeline only after the
     * second launch formed and trains: it stops nothing, and the job trains on node-b.
     */
    @Test
    void theFirstLaunchsLastLineArrivingAfterTheSecondLaunchTrainsStopsNothing() {
        Relaunch r = new Relaunch(UnaryOperator.identity());
        r.firstLaunch(false);
        r.secondLaunch();
        int incidents = r.model.jobs().incidents(RELAUNCHED).orElseThrow().size();

        assertThat(r.send(List.of(r.lastLineOfFirstLaunch))).isEqualTo(1);
        r.progress("2026-12-06T01:02:34.240Z", 66);

        assertThat(r.model.jobs().detail(RELAUNCHED).orElseThrow().summary().state())
                .isEqualTo(JobState.RUNNING);
        assertThat(r.model.jobs().incidents(RELAUNCHED).orElseThrow()).hasSize(incidents);
        assertThat(r.model.jobs().jobsOn("node-b")).containsExactly(RELAUNCHED);
    }

    /**
     * The recorded relaunch replayed in the order it reached Lifeline: the fixture's torchelastic lines, and the
     * trainers' own events (progress, restore) as the agent sent them, at their times.
     */
    private static final class Relaunch {
        final Clock clock = Clock.fixed(Instant.parse("2026-12-06T01:03:00Z"), ZoneOffset.UTC);
        final LifelineModel model = new LifelineModel(new Fleet(clock), clock);
        final TorchelasticTranslator translator =
                new TorchelasticTranslator(JobResolver.of(Map.of("relaunch", new JobBinding(RELAUNCHED, 1))));
        final List<String> lines;
        final List<String> firstLaunchLines;
        final String lastLineOfFirstLaunch;
        final List<String> secondLaunchLines;
        private int ids;

        Relaunch(UnaryOperator<String> asSent) {
            this.asSent = asSent;
            lines = Fixtures.text(RELAUNCH).lines().toList();
            int failed = 8;
            assertThat(lines.get(failed))
                    .contains("torchelastic.worker.status.FAILED")
                    .contains("\"source\": \"AGENT\"");
            firstLaunchLines = lines.subList(0, failed);
            lastLineOfFirstLaunch = lines.get(failed);
            secondLaunchLines = lines.subList(failed + 1, lines.size());
        }

        private final UnaryOperator<String> asSent;

        /** The first launch: its rounds, steps to 29, and (when {@code withItsEnd}) its agent's FAILED line. */
        void firstLaunch(boolean withItsEnd) {
            model.apply(new Event(
                    "submitted-1",
                    "test",
                    EventType.JOB_SUBMITTED,
                    RELAUNCHED,
                    Instant.parse("2026-12-06T01:01:50.480Z"),
                    new JobData.Submitted("ml", null, null, new ElasticPolicy(1, 1, 1, 2), 0, null)));
            send(firstLaunchLines);
            progress("2026-12-06T01:01:59.833Z", 0);
            progress("2026-12-06T01:02:07.998Z", 11);
            progress("2026-12-06T01:02:09.936Z", 29);
            if (withItsEnd) {
                send(List.of(lastLineOfFirstLaunch));
            }
        }

        /** The second launch: its round 0 and start, the restore of step 37, steps to 58, its end. */
        void secondLaunch() {
            int started = 0;
            while (!secondLaunchLines.get(started).contains("torchelastic.worker.status.START")) {
                started++;
            }
            send(secondLaunchLines.subList(0, started + 1));
            progress("2026-12-06T01:02:26.057Z", 0);
            model.apply(new Event(
                    "restored-" + (++ids),
                    "test",
                    EventType.TRAINER_RESTORED,
                    RELAUNCHED,
                    Instant.parse("2026-12-06T01:02:30.290Z"),
                    new TrainerData.Restored("step-37-relaunch-b1fcae81-r0", 37, "relaunch")));
            progress("2026-12-06T01:02:30.410Z", 37);
            progress("2026-12-06T01:02:32.233Z", 49);
            progress("2026-12-06T01:02:33.235Z", 58);
            send(secondLaunchLines.subList(started + 1, secondLaunchLines.size()));
        }

        void progress(String at, long step) {
            model.apply(new Event(
                    "progress-" + (++ids),
                    "test",
                    EventType.TRAINER_PROGRESS,
                    RELAUNCHED,
                    Instant.parse(at),
                    new TrainerData.Progress(step, null, null)));
        }

        /**
         * Sends recorded lines as they are sent ({@code asSent}), each received a second after torchrun recorded it
         * (the time the wrapper stamped on the recorded line); returns how many events they gave.
         */
        int send(List<String> recorded) {
            int events = 0;
            for (String line : recorded) {
                Matcher m = STAMP.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                Translation t = translator.translate(
                        asSent.apply(line),
                        Instant.ofEpochMilli(Long.parseLong(m.group(1))).plusSeconds(1));
                assertThat(t.rejections()).as(line).isEmpty();
                events += t.events().size();
                t.events().forEach(model::apply);
            }
            return events;
        }
    }

    private static final Pattern STAMP = Pattern.compile("\"timestamp\": ([0-9]+)");

    private static Event event(
            String id, EventType type, String subject, Instant at, io.lifeline.domain.event.EventData data) {
        return new Event(id, "test", type, subject, at, data);
    }
}
