package io.lifeline.connector.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lifeline.connector.EventContract;
import io.lifeline.testing.Fixtures;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * torchelastic's own event lines: the real worker/agent status lines of
 * {@code fixtures/torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl}, variations of them (one field
 * changed, as other runs write it), and rendezvous events built from real "has joined round" messages.
 */
class TorchelasticTranslatorTest {

    private static final List<String> LINES =
            Fixtures.text("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl").lines().toList();
    private static final String WORKER_FAILED = LINES.get(0);
    private static final String AGENT_SUCCEEDED = LINES.get(1);
    private static final Instant RECEIVED = Instant.parse("2021-09-14T10:00:00Z");
    private static final String JOB = "team-a/c10d-echo";

    private final TorchelasticTranslator translator = new TorchelasticTranslator(
            JobResolver.of(Map.of("1234", new JobBinding(JOB, 1), "11", new JobBinding("team-b/resnet18", 2))));

    @Test
    void workerFailedLineYieldsTheRestartCountAndTheFailedRank() {
        Translation t = translator.translate(WORKER_FAILED, RECEIVED);

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events()).extracting(Event::type, Event::id, Event::data).containsExactly(
                tuple(EventType.TRAINER_RESTARTED, "torchelastic/1234/restarted/3",
                        new TrainerData.Restarted("1234", 3, "torchelastic agent_restarts=3 (reported by WORKER FAILED)")),
                tuple(EventType.TRAINER_WORKER_FAILED, "torchelastic/1234/restart-3/worker_failed/1",
                        new TrainerData.WorkerFailed("1234", 1, "ip-172-30-2-79", null, null)));
        assertThat(t.events()).allSatisfy(e -> {
            assertThat(e.subject()).isEqualTo(JOB);
            assertThat(e.source()).isEqualTo("torchelastic/" + JOB);
            assertThat(e.time()).as("timestamp 0 falls back to the receive time").isEqualTo(RECEIVED);
        });
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void agentSucceededLineOnlyRepeatsTheRestartCountWithTheSameId() {
        Event fromWorker = translator.translate(WORKER_FAILED, RECEIVED).events().get(0);
        Translation t = translator.translate(AGENT_SUCCEEDED, RECEIVED);

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.TRAINER_RESTARTED);
            assertThat(e.id()).isEqualTo(fromWorker.id());
            assertThat(((TrainerData.Restarted) e.data()).restartCount()).isEqualTo(3);
        });
    }

    @Test
    void workerErrorFileMessageErrorCodeAndRankListsAreRead() {
        String line = WORKER_FAILED
                .replace("\"global_rank\": 1,", "\"global_rank\": [2, 3],")
                .replace("\"raw_error\": \"{\\\"message\\\": \\\"<NONE>\\\"}\"",
                        "\"raw_error\": \"{\\\"message\\\": {\\\"message\\\": \\\"RuntimeError: foobar\\\", \\\"extraInfo\\\": "
                                + "{\\\"py_callstack\\\": \\\"Traceback (most recent call last):\\\", \\\"timestamp\\\": "
                                + "\\\"1605774851\\\"}, \\\"errorCode\\\": -9}}\"")
                .replace("\"timestamp\": 0", "\"timestamp\": 1631613000000");
        assertThat(line).isNotEqualTo(WORKER_FAILED);

        Translation t = translator.translate(line, RECEIVED);

        assertThat(t.events()).filteredOn(e -> e.type() == EventType.TRAINER_WORKER_FAILED)
                .extracting(Event::data, Event::time).containsExactly(
                        tuple(new TrainerData.WorkerFailed("1234", 2, "ip-172-30-2-79", -9, "RuntimeError: foobar"),
                                Instant.parse("2021-09-14T09:50:00Z")),
                        tuple(new TrainerData.WorkerFailed("1234", 3, "ip-172-30-2-79", -9, "RuntimeError: foobar"),
                                Instant.parse("2021-09-14T09:50:00Z")));
    }

    @Test
    void agentFailedMarksEveryRankOfTheAgentWhenProcsPerNodeIsKnown() {
        String agentFailed = AGENT_SUCCEEDED.replace("SUCCEEDED", "FAILED").replace("\"raw_error\": null",
                "\"raw_error\": \"Traceback (most recent call last):\\n  File \\\"run.py\\\", line 7\\n"
                        + "torch.distributed.elastic.multiprocessing.api.SignalException: Process 28454 got signal: 15\\n\"");

        Translation known = translator.translate(agentFailed, RECEIVED);
        Translation unknown = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-a", null))
                .translate(agentFailed, RECEIVED);

        assertThat(known.events()).filteredOn(e -> e.type() == EventType.TRAINER_WORKER_FAILED).extracting(Event::data)
                .containsExactly(new TrainerData.WorkerFailed("1234", 1, "ip-172-30-2-79", null,
                        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 28454 got signal: 15"));
        assertThat(unknown.events()).extracting(Event::type, Event::subject)
                .containsExactly(tuple(EventType.TRAINER_RESTARTED, "team-a/1234"));
        assertThat(unknown.rejections()).extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.AGENT_RANKS_UNKNOWN);
    }

    @Test
    void hostnamesAreMappedToNodesByTheCallersFunction() {
        TorchelasticTranslator mapped = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-a", 1),
                host -> host.equals("ip-172-30-2-79") ? "ip-172-30-2-79.ec2.internal" : host, 8);

        Event failed = mapped.translate(WORKER_FAILED, RECEIVED).events().get(1);

        assertThat(((TrainerData.WorkerFailed) failed.data()).node()).isEqualTo("ip-172-30-2-79.ec2.internal");
        assertThat(failed.subject()).isEqualTo("team-a/1234");
    }

    @Test
    void anUnknownRunIsRejected() {
        TorchelasticTranslator none = new TorchelasticTranslator(JobResolver.of(Map.of()));

        Translation t = none.translate(WORKER_FAILED, RECEIVED);

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections()).extracting(Translation.Rejection::reason, Translation.Rejection::detail)
                .containsExactly(tuple(TorchelasticTranslator.UNKNOWN_JOB, "run 1234 is not a known job"));
    }

    /**
     * Rendezvous events as {@code RdzvEvent.serialize()} writes them, carrying the messages of a real two-node run
     * (run id {@code 11}, two processes per node: "The node 'master1_21848_0' has joined round 4 of the rendezvous
     * '11' as rank 0 in a world of size 2."); the second node's message follows the same template.
     */
    @Test
    void rendezvousIsEmittedOnceEveryNodeOfTheRoundHasJoined() {
        Translation first = translator.translate(rdzv("master1", 21848, 0,
                "The node 'master1_21848_0' has joined round 4 of the rendezvous '11' as rank 0 in a world of size 2."),
                RECEIVED);
        Translation second = translator.translate(rdzv("worker2", 10144, 1,
                "The node 'worker2_10144_0' has joined round 4 of the rendezvous '11' as rank 1 in a world of size 2."),
                RECEIVED.plusSeconds(1));

        assertThat(first.events()).isEmpty();
        assertThat(first.rejections()).isEmpty();
        assertThat(second.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.TRAINER_RENDEZVOUS);
            assertThat(e.id()).isEqualTo("torchelastic/11/rendezvous/4");
            assertThat(e.subject()).isEqualTo("team-b/resnet18");
            assertThat(e.time()).isEqualTo(RECEIVED.plusSeconds(1));
            assertThat(e.data()).isEqualTo(new TrainerData.Rendezvous("11", 4, 4, List.of(
                    new TrainerData.Participant("master1", 0, 2), new TrainerData.Participant("worker2", 2, 2))));
        });
        EventContract.assertRoundTrips(second.events());
    }

    @Test
    void aSingleNodeRendezvousCompletesAtOnceAndOtherRendezvousMessagesSayNothing() {
        Translation joined = translator.translate(rdzv("master1", 21848, 0,
                "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                RECEIVED);
        Translation attempt = translator.translate(rdzv("master1", 21848, null,
                "The node 'master1_21848_0' attempts to join the next round of the rendezvous '11'."), RECEIVED);

        assertThat(joined.events()).extracting(Event::data).containsExactly(new TrainerData.Rendezvous("11", 0, 2,
                List.of(new TrainerData.Participant("master1", 0, 2))));
        assertThat(attempt.events()).isEmpty();
        assertThat(attempt.rejections()).isEmpty();
    }

    @Test
    void aRendezvousNeedsProcsPerNodeToCountRanks() {
        Translation t = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-b", null)).translate(rdzv("master1",
                21848, 0, "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                RECEIVED);

        assertThat(t.rejections()).extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.RENDEZVOUS_NEEDS_PROCS_PER_NODE);
    }

    @Test
    void aRendezvousMessageLongerThanAnyJoinIsRejectedUnread() {
        // Without the length bound the join pattern backtracks over this for about half a minute (quadratic).
        String message = "has joined round 1 of ".repeat(16_000);

        Translation t = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-b", 2))
                .translate(rdzv("master1", 21848, 0, message), RECEIVED);

        assertThat(t.events()).isEmpty();
        assertThat(t.rejections()).extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.INVALID_RENDEZVOUS);
        assertThat(t.rejections().get(0).detail()).startsWith("message longer than 2048 characters");
    }

    @Test
    void garbageIsRejectedAndCounted() {
        assertThat(translator.translate("[torchelastic] not json", RECEIVED).rejections())
                .extracting(Translation.Rejection::reason).containsExactly(TorchelasticTranslator.MALFORMED_JSON);
        assertThat(translator.translate("{\"hello\": 1}", RECEIVED).rejections())
                .extracting(Translation.Rejection::reason).containsExactly(TorchelasticTranslator.NOT_A_TORCHELASTIC_EVENT);
        translator.translate(WORKER_FAILED, RECEIVED);

        assertThat(translator.stats().received()).isEqualTo(3);
        assertThat(translator.stats().translated()).isEqualTo(1);
        assertThat(translator.stats().rejected()).isEqualTo(2);
        assertThat(translator.stats().events()).isEqualTo(2);
    }

    private static String rdzv(String host, int pid, Integer rank, String message) {
        return "{\"name\": \"DynamicRendezvousHandler.next_rendezvous\", \"run_id\": \"11\", \"message\": \"" + message
                + "\", \"hostname\": \"" + host + "\", \"pid\": " + pid + ", \"node_state\": \"RUNNING\", "
                + "\"master_endpoint\": \"\", \"rank\": " + rank + ", \"local_id\": 0, \"error_trace\": \"\"}";
    }
}
