package io.lifeline.connector.inbound.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.Fixtures;
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

    private static final List<String> LINES = Fixtures.text(
                    "torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl")
            .lines()
            .toList();
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
        assertThat(t.events())
                .extracting(Event::type, Event::id, Event::data)
                .containsExactly(
                        tuple(
                                EventType.TRAINER_RESTARTED,
                                "torchelastic/1234/restarted/3",
                                new TrainerData.Restarted(
                                        "1234", 3, "torchelastic agent_restarts=3 (reported by WORKER FAILED)")),
                        tuple(
                                EventType.TRAINER_WORKER_FAILED,
                                "torchelastic/1234/restart-3/worker_failed/1",
                                new TrainerData.WorkerFailed("1234", 1, "ip-172-30-2-79", null, null)));
        assertThat(t.events()).allSatisfy(e -> {
            assertThat(e.subject()).isEqualTo(JOB);
            assertThat(e.source()).isEqualTo("torchelastic/" + JOB);
            assertThat(e.time())
                    .as("timestamp 0 falls back to the receive time")
                    .isEqualTo(RECEIVED);
        });
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void agentSucceededLineOnlyRepeatsTheRestartCountWithTheSameId() {
        Event fromWorker =
                translator.translate(WORKER_FAILED, RECEIVED).events().get(0);
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
                .replace(
                        "\"raw_error\": \"{\\\"message\\\": \\\"<NONE>\\\"}\"",
                        "\"raw_error\": \"{\\\"message\\\": {\\\"message\\\": \\\"RuntimeError: foobar\\\", \\\"extraInfo\\\": "
                                + "{\\\"py_callstack\\\": \\\"Traceback (most recent call last):\\\", \\\"timestamp\\\": "
                                + "\\\"1605774851\\\"}, \\\"errorCode\\\": -9}}\"")
                .replace("\"timestamp\": 0", "\"timestamp\": 1631613000000");
        assertThat(line).isNotEqualTo(WORKER_FAILED);

        Translation t = translator.translate(line, RECEIVED);

        assertThat(t.events())
                .filteredOn(e -> e.type() == EventType.TRAINER_WORKER_FAILED)
                .extracting(Event::data, Event::time)
                .containsExactly(
                        tuple(
                                new TrainerData.WorkerFailed("1234", 2, "ip-172-30-2-79", -9, "RuntimeError: foobar"),
                                Instant.parse("2021-09-14T09:50:00Z")),
                        tuple(
                                new TrainerData.WorkerFailed("1234", 3, "ip-172-30-2-79", -9, "RuntimeError: foobar"),
                                Instant.parse("2021-09-14T09:50:00Z")));
    }

    @Test
    void agentFailedMarksEveryRankOfTheAgentWhenProcsPerNodeIsKnown() {
        String agentFailed = AGENT_SUCCEEDED
                .replace("SUCCEEDED", "FAILED")
                .replace(
                        "\"raw_error\": null",
                        "\"raw_error\": \"Traceback (most recent call last):\\n  File \\\"run.py\\\", line 7\\n"
                                + "torch.distributed.elastic.multiprocessing.api.SignalException: Process 28454 got signal: 15\\n\"");

        Translation known = translator.translate(agentFailed, RECEIVED);
        Translation unknown = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-a", null))
                .translate(agentFailed, RECEIVED);

        assertThat(known.events())
                .filteredOn(e -> e.type() == EventType.TRAINER_WORKER_FAILED)
                .extracting(Event::data)
                .containsExactly(new TrainerData.WorkerFailed(
                        "1234",
                        1,
                        "ip-172-30-2-79",
                        null,
                        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 28454 got signal: 15"));
        assertThat(unknown.events())
                .extracting(Event::type, Event::subject)
                .containsExactly(tuple(EventType.TRAINER_RESTARTED, "team-a/1234"));
        assertThat(unknown.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.AGENT_RANKS_UNKNOWN);
    }

    @Test
    void hostnamesAreMappedToNodesByTheCallersFunction() {
        TorchelasticTranslator mapped = new TorchelasticTranslator(
                JobResolver.runIdInNamespace("team-a", 1),
                host -> host.equals("ip-172-30-2-79") ? "ip-172-30-2-79.ec2.internal" : host,
                8);

        Event failed = mapped.translate(WORKER_FAILED, RECEIVED).events().get(1);

        assertThat(((TrainerData.WorkerFailed) failed.data()).node()).isEqualTo("ip-172-30-2-79.ec2.internal");
        assertThat(failed.subject()).isEqualTo("team-a/1234");
    }

    @Test
    void anUnknownRunIsRejected() {
        TorchelasticTranslator none = new TorchelasticTranslator(JobResolver.of(Map.of()));

        Translation t = none.translate(WORKER_FAILED, RECEIVED);

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason, Translation.Rejection::detail)
                .containsExactly(tuple(TorchelasticTranslator.UNKNOWN_JOB, "run 1234 is not a known job"));
    }

    /**
     * Rendezvous events as {@code RdzvEvent.serialize()} writes them, carrying the messages of a real two-node run
     * (run id {@code 11}, two processes per node: "The node 'master1_21848_0' has joined round 4 of the rendezvous
     * '11' as rank 0 in a world of size 2."); the second node's message follows the same template.
     */
    @Test
    void rendezvousIsEmittedOnceEveryNodeOfTheRoundHasJoined() {
        Translation first = translator.translate(
                rdzv(
                        "master1",
                        21848,
                        0,
                        "The node 'master1_21848_0' has joined round 4 of the rendezvous '11' as rank 0 in a world of size 2."),
                RECEIVED);
        Translation second = translator.translate(
                rdzv(
                        "worker2",
                        10144,
                        1,
                        "The node 'worker2_10144_0' has joined round 4 of the rendezvous '11' as rank 1 in a world of size 2."),
                RECEIVED.plusSeconds(1));

        assertThat(first.events()).isEmpty();
        assertThat(first.rejections()).isEmpty();
        assertThat(second.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.TRAINER_RENDEZVOUS);
            assertThat(e.id())
                    .startsWith("torchelastic/11/rendezvous/4/")
                    .hasSize("torchelastic/11/rendezvous/4/".length() + 12);
            assertThat(e.subject()).isEqualTo("team-b/resnet18");
            assertThat(e.time()).isEqualTo(RECEIVED.plusSeconds(1));
            assertThat(e.data())
                    .isEqualTo(new TrainerData.Rendezvous(
                            "11",
                            4,
                            4,
                            List.of(
                                    new TrainerData.Participant("master1", 0, 2),
                                    new TrainerData.Participant("worker2", 2, 2))));
        });
        EventContract.assertRoundTrips(second.events());
    }

    @Test
    void aSingleNodeRendezvousCompletesAtOnceAndOtherRendezvousMessagesSayNothing() {
        Translation joined = translator.translate(
                rdzv(
                        "master1",
                        21848,
                        0,
                        "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                RECEIVED);
        Translation attempt = translator.translate(
                rdzv(
                        "master1",
                        21848,
                        null,
                        "The node 'master1_21848_0' attempts to join the next round of the rendezvous '11'."),
                RECEIVED);

        assertThat(joined.events())
                .extracting(Event::data)
                .containsExactly(
                        new TrainerData.Rendezvous("11", 0, 2, List.of(new TrainerData.Participant("master1", 0, 2))));
        assertThat(attempt.events()).isEmpty();
        assertThat(attempt.rejections()).isEmpty();
    }

    @Test
    void aRendezvousNeedsProcsPerNodeToCountRanks() {
        Translation t = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-b", null))
                .translate(
                        rdzv(
                                "master1",
                                21848,
                                0,
                                "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                        RECEIVED);

        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.RENDEZVOUS_NEEDS_PROCS_PER_NODE);
    }

    @Test
    void aRendezvousMessageLongerThanAnyJoinIsRejectedUnread() {
        // Without the length bound the join pattern backtracks over this for about half a minute (quadratic).
        String message = "has joined round 1 of ".repeat(16_000);

        Translation t = new TorchelasticTranslator(JobResolver.runIdInNamespace("team-b", 2))
                .translate(rdzv("master1", 21848, 0, message), RECEIVED);

        assertThat(t.events()).isEmpty();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.INVALID_RENDEZVOUS);
        assertThat(t.rejections().get(0).detail()).startsWith("message longer than 2048 characters");
    }

    @Test
    void garbageIsRejectedAndCounted() {
        assertThat(translator.translate("[torchelastic] not json", RECEIVED).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.MALFORMED_JSON);
        assertThat(translator.translate("{\"hello\": 1}", RECEIVED).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.NOT_A_TORCHELASTIC_EVENT);
        translator.translate(WORKER_FAILED, RECEIVED);

        assertThat(translator.stats().received()).isEqualTo(3);
        assertThat(translator.stats().translated()).isEqualTo(1);
        assertThat(translator.stats().rejected()).isEqualTo(2);
        assertThat(translator.stats().events()).isEqualTo(2);
    }

    /**
     * A job stopped and launched again with the same run id: the new launch's agents (new processes, so new node ids)
     * number their rounds from 0 again and count their restarts from 0 again. Its rounds and restarts are new events;
     * each line sent again is the same event.
     */
    @Test
    void aRelaunchWithTheSameRunIdGivesNewIdsAndAResendTheSameOnes() {
        String launch1 = rdzv(
                "master1",
                21848,
                0,
                "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1.");
        String launch2 = rdzv(
                "worker2",
                30211,
                0,
                "The node 'worker2_30211_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1.");

        Event first = translator.translate(launch1, RECEIVED).events().get(0);
        Event firstRestart = translator
                .translate(statusOf("11", 0, 1, "master1"), RECEIVED.plusSeconds(10))
                .events()
                .get(0);
        Event relaunched =
                translator.translate(launch2, RECEIVED.plusSeconds(60)).events().get(0);
        Event resent =
                translator.translate(launch2, RECEIVED.plusSeconds(61)).events().get(0);
        // The new launch's agent counts its restarts from 0 again: its restart 1 is not the first launch's.
        Event secondRestart = translator
                .translate(statusOf("11", 0, 1, "worker2"), RECEIVED.plusSeconds(70))
                .events()
                .get(0);

        assertThat(relaunched.id()).isNotEqualTo(first.id());
        assertThat(resent.id()).isEqualTo(relaunched.id());
        assertThat(((TrainerData.Rendezvous) relaunched.data()).participants())
                .extracting(TrainerData.Participant::node)
                .containsExactly("worker2");
        assertThat(firstRestart.id())
                .as("a status line names no agent: the round its group rank had names it")
                .isEqualTo("torchelastic/11/master1_21848_0/restarted/1");
        assertThat(secondRestart.id()).isEqualTo("torchelastic/11/worker2_30211_0/restarted/1");
    }

    /** The agent wrapper's launch id: every line of one wrapper carries it, the ids of its facts name it. */
    @Test
    void theWrappersLaunchIdNamesTheLaunchOfStatusAndRendezvousLines() {
        String join = "The node 'pod-0_1_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1.";
        // On Kubernetes a recreated pod has the same host name and often the same pid: only the wrapper tells them
        // apart.
        Event first = translator
                .translate(withLaunch(rdzv("pod-0", 1, 0, join), "5f3a9c0b"), RECEIVED)
                .events()
                .get(0);
        Event second = translator
                .translate(withLaunch(rdzv("pod-0", 1, 0, join), "0c4d21e7"), RECEIVED)
                .events()
                .get(0);
        Event noWrapper = translator
                .translate(rdzv("pod-0", 1, 0, join), RECEIVED)
                .events()
                .get(0);
        assertThat(List.of(first.id(), second.id(), noWrapper.id())).doesNotHaveDuplicates();

        Translation failed = translator.translate(withLaunch(WORKER_FAILED, "5f3a9c0b"), RECEIVED);
        Translation again = translator.translate(withLaunch(WORKER_FAILED, "5f3a9c0b"), RECEIVED.plusSeconds(5));
        Translation otherLaunch = translator.translate(withLaunch(WORKER_FAILED, "0c4d21e7"), RECEIVED);
        assertThat(failed.events())
                .extracting(Event::id)
                .containsExactly(
                        "torchelastic/1234/5f3a9c0b/restarted/3",
                        "torchelastic/1234/5f3a9c0b/restart-3/worker_failed/1");
        assertThat(again.events())
                .extracting(Event::id)
                .isEqualTo(failed.events().stream().map(Event::id).toList());
        assertThat(otherLaunch.events())
                .extracting(Event::id)
                .containsExactly(
                        "torchelastic/1234/0c4d21e7/restarted/3",
                        "torchelastic/1234/0c4d21e7/restart-3/worker_failed/1");
    }

    @Test
    void aLaunchIdThatCannotBeOneIsRejectedWithTheReason() {
        Translation t = translator.translate(withLaunch(WORKER_FAILED, "a/b c"), RECEIVED);

        assertThat(t.events()).isEmpty();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(TorchelasticTranslator.INVALID_LAUNCH);
        assertThat(t.rejections().get(0).detail()).contains("lifeline_launch");
    }

    /**
     * A round of the launch before that never completed (its second node died while joining) must not be completed
     * by the new launch's first join: they are rounds of another world size.
     */
    @Test
    void aRoundLeftPendingByTheLaunchBeforeIsNotCompletedByANewLaunchOfAnotherSize() {
        translator.translate(
                rdzv(
                        "master1",
                        21848,
                        1,
                        "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 1 in a world of size 2."),
                RECEIVED);

        Translation relaunched = translator.translate(
                rdzv(
                        "worker2",
                        30211,
                        0,
                        "The node 'worker2_30211_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                RECEIVED.plusSeconds(60));

        assertThat(relaunched.events())
                .singleElement()
                .satisfies(e -> assertThat(((TrainerData.Rendezvous) e.data()).participants())
                        .extracting(TrainerData.Participant::node)
                        .containsExactly("worker2"));
    }

    /**
     * The wrapper gives every line the time torchelastic recorded it: a round happened when its last agent joined,
     * whichever line reached Lifeline last and whenever it did (lines wait in batches, or for Lifeline to answer).
     */
    @Test
    void aRoundHappenedWhenItsLastAgentJoinedNotWhenItsLinesArrived() {
        Instant rank0Joined = RECEIVED.minusSeconds(25);
        Instant rank1Joined = RECEIVED.minusSeconds(20);
        translator.translate(
                withTime(
                        rdzv(
                                "worker2",
                                10144,
                                1,
                                "The node 'worker2_10144_0' has joined round 4 of the rendezvous '11' as rank 1 in a world of size 2."),
                        rank1Joined),
                RECEIVED);
        Translation t = translator.translate(
                withTime(
                        rdzv(
                                "master1",
                                21848,
                                0,
                                "The node 'master1_21848_0' has joined round 4 of the rendezvous '11' as rank 0 in a world of size 2."),
                        rank0Joined),
                RECEIVED.plusSeconds(3));

        assertThat(t.events())
                .singleElement()
                .satisfies(e -> assertThat(e.time()).isEqualTo(rank1Joined));
    }

    /**
     * A status line names only its host and group rank: the round's agent at that rank gives its launch (and node)
     * only when it is on that host, since a later round may have dealt the rank to another agent.
     */
    @Test
    void aStatusLineOfAnotherHostThanTheRoundsAgentAtItsRankIsNotGivenThatAgentsLaunch() {
        translator.translate(
                rdzv(
                        "master1",
                        21848,
                        0,
                        "The node 'master1_21848_0' has joined round 0 of the rendezvous '11' as rank 0 in a world of size 1."),
                RECEIVED);

        Event r = translator
                .translate(statusOf("11", 0, 1, "worker2"), RECEIVED)
                .events()
                .get(0);

        assertThat(r.id()).isEqualTo("torchelastic/11/restarted/1");
    }

    private static String withTime(String line, Instant at) {
        return line.substring(0, line.length() - 1) + ", \"timestamp\": " + at.toEpochMilli() + "}";
    }

    /** A status line of run {@code run} from the agent of group rank {@code groupRank} on {@code host}, restarted. */
    private static String statusOf(String run, int groupRank, int restarts, String host) {
        return AGENT_SUCCEEDED
                .replace("\"run_id\": \"1234\"", "\"run_id\": \"" + run + "\"")
                .replace("ip-172-30-2-79", host)
                .replace("\"group_rank\": 1", "\"group_rank\": " + groupRank)
                .replace("\"agent_restarts\": 3", "\"agent_restarts\": " + restarts);
    }

    private static String withLaunch(String line, String launch) {
        return line.substring(0, line.length() - 1) + ", \"lifeline_launch\": \"" + launch + "\"}";
    }

    private static String rdzv(String host, int pid, Integer rank, String message) {
        return "{\"name\": \"DynamicRendezvousHandler.next_rendezvous\", \"run_id\": \"11\", \"message\": \"" + message
                + "\", \"hostname\": \"" + host + "\", \"pid\": " + pid + ", \"node_state\": \"RUNNING\", "
                + "\"master_endpoint\": \"\", \"rank\": " + rank + ", \"local_id\": 0, \"error_trace\": \"\"}";
    }
}
