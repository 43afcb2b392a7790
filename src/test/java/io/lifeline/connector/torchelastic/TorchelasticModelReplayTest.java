package io.lifeline.connector.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.Fixtures;
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
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
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
        model.apply(event("n1", EventType.NODE_REGISTERED, "ip-172-30-2-79", T0,
                new NodeData.Registered("pool-a", CapacityType.ON_DEMAND, null, null, 1, null)));
        model.apply(event("n2", EventType.NODE_REGISTERED, "ip-172-30-2-80", T0,
                new NodeData.Registered("pool-a", CapacityType.ON_DEMAND, null, null, 1, null)));
        model.apply(event("j1", EventType.JOB_SUBMITTED, JOB, T0,
                new JobData.Submitted("team-a", null, null, new ElasticPolicy(1, 2, 1, 3), 1, null)));
        model.apply(event("r1", EventType.TRAINER_RENDEZVOUS, JOB, T0.plusSeconds(5), new TrainerData.Rendezvous("1234", 1, 2,
                List.of(new TrainerData.Participant("ip-172-30-2-80", 0, 1),
                        new TrainerData.Participant("ip-172-30-2-79", 1, 1)))));
        model.apply(event("p1", EventType.TRAINER_PROGRESS, JOB, T0.plusSeconds(10), new TrainerData.Progress(10, null, null)));

        TorchelasticTranslator translator = new TorchelasticTranslator(
                JobResolver.of(Map.of("1234", new JobBinding(JOB, 1))));
        Instant received = T0.plusSeconds(48);
        for (String line : Fixtures.text("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl").lines().toList()) {
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
        assertThat(model.jobs().membership(JOB).orElseThrow().current().worldSize()).isEqualTo(2);
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
        model.apply(event("j1", EventType.JOB_SUBMITTED, job, T0,
                new JobData.Submitted("team-a", null, null, new ElasticPolicy(2, 2, 1, 2), 0, null)));
        TorchelasticTranslator translator = new TorchelasticTranslator(JobResolver.of(Map.of("cap1", new JobBinding(job, 1))));
        int rounds = 0;
        for (String line : Fixtures.text("torchelastic/events_torch213_two_agents_one_host_c10d.jsonl").lines().toList()) {
            Translation t = translator.translate(line, T0.plusSeconds(10));
            assertThat(t.rejections()).isEmpty();
            for (Event e : t.events()) {
                if (e.type() == EventType.TRAINER_RENDEZVOUS) {
                    rounds++;
                    TrainerData.Rendezvous r = (TrainerData.Rendezvous) e.data();
                    assertThat(r.worldSize()).isEqualTo(2);
                    assertThat(r.participants()).extracting(TrainerData.Participant::node)
                            .containsExactly("localhost_3539_0", "localhost_3540_0");
                }
                model.apply(e);
            }
        }
        assertThat(rounds).isEqualTo(2);
        var membership = model.jobs().membership(job).orElseThrow().current();
        assertThat(membership.worldSize()).isEqualTo(2);
        assertThat(membership.participants()).extracting(p -> p.node()).containsExactly("localhost_3539_0", "localhost_3540_0");
        assertThat(model.jobs().jobsOn("localhost_3540_0")).containsExactly(job);
    }

    private static Event event(String id, EventType type, String subject, Instant at, io.lifeline.domain.event.EventData data) {
        return new Event(id, "test", type, subject, at, data);
    }
}
