package io.lifeline.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.eventlog.LogStacks;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.CloudEvents;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The priority lane: an interruption notice submitted while a batch waits for the store is stored in its own write
 * before that batch (a lower seq, so every replica's follower sees it first too) and applied to the model before it;
 * a submission mixing both is split, and its receipt still names refusals by their index in it.
 */
@QuarkusTest
class PriorityLaneTest {

    @Inject
    IngestPipeline pipeline;

    @Inject
    ModelRuntime model;

    @Inject
    AgroalDataSource dataSource;

    private final Instant now = Instant.now();

    private static Event cordoned(String id, String node, Instant time) {
        return new Event(id, "test/lane", EventType.NODE_CORDONED, node, time, new NodeData.Cordoned("test"));
    }

    private static Event notice(String id, String node, Instant time) {
        return new Event(
                id,
                "test/lane",
                EventType.NODE_INTERRUPTION_NOTICE,
                node,
                time,
                new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", time.plusSeconds(120)));
    }

    @Test
    void aNoticeIsStoredAndAppliedBeforeTheBatchQueuedAheadOfIt() throws Exception {
        String node = "lane-" + CloudEvents.uniqueId().substring(0, 8);
        List<String> applied = new CopyOnWriteArrayList<>();
        model.addApplyListener((e, outcome, m) -> {
            if (e.subject().equals(node)) {
                applied.add(e.id());
            }
        });
        CompletableFuture<IngestReceipt> first;
        CompletableFuture<IngestReceipt> queued;
        CompletableFuture<IngestReceipt> urgent;
        try (Connection holder = dataSource.getConnection()) {
            // Another writer holds the commit-order lock: this replica's writer waits with the first batch in hand.
            LogStacks.takeCommitOrderLock(holder);
            first = pipeline.submit(List.of(cordoned(node + "-first", node, now)))
                    .toCompletableFuture();
            awaitAWriterWaitingForTheLock();
            queued = pipeline.submit(List.of(
                            cordoned(node + "-queued-1", node, now.plusMillis(1)),
                            cordoned(node + "-queued-2", node, now.plusMillis(2))))
                    .toCompletableFuture();
            urgent = pipeline.submit(List.of(notice(node + "-notice", node, now.plusMillis(3))))
                    .toCompletableFuture();
            Thread.sleep(100);
            holder.rollback();
        }
        CompletableFuture.allOf(first, queued, urgent).get(60, TimeUnit.SECONDS);
        model.barrier().get(30, TimeUnit.SECONDS);

        Map<String, Long> seq = seqs(node);
        assertThat(seq.get(node + "-first")).isLessThan(seq.get(node + "-notice"));
        assertThat(seq.get(node + "-notice")).isLessThan(seq.get(node + "-queued-1"));
        assertThat(seq.get(node + "-queued-1")).isLessThan(seq.get(node + "-queued-2"));
        assertThat(applied).containsExactly(node + "-first", node + "-notice", node + "-queued-1", node + "-queued-2");
    }

    @Test
    void aMixedSubmissionIsSplitAndItsReceiptNamesRefusalsByTheirIndexInIt() throws Exception {
        String node = "lane-" + CloudEvents.uniqueId().substring(0, 8);
        String other = node + "-o";
        List<Event> batch = new ArrayList<>();
        batch.add(cordoned(node + "-0", other, now));
        batch.add(notice(node + "-1", node, now.plusMillis(1)));
        batch.add(cordoned(node + "-2", other, Instant.parse("0000-01-01T00:00:00Z")));
        batch.add(notice(node + "-3", node, now.plusSeconds(7200)));
        batch.add(notice(node + "-4", node, now.plusMillis(4)));
        batch.add(cordoned(node + "-0", other, now));

        IngestReceipt receipt = pipeline.submit(batch).toCompletableFuture().get(60, TimeUnit.SECONDS);

        // 2 refused by the store (out of range), 3 by the gateway (dated in the future), 5 a duplicate of 0.
        assertThat(receipt.rejected()).extracting(Refusal::index).containsExactly(2, 3);
        assertThat(receipt.accepted()).isEqualTo(3);
        assertThat(receipt.duplicates()).isEqualTo(1);
        Map<String, Long> seq = seqs(node);
        assertThat(seq).containsOnlyKeys(node + "-1", node + "-4");
        Map<String, Long> otherSeq = seqs(other);
        assertThat(otherSeq).containsOnlyKeys(node + "-0");
        // The notices went first, in their order, ahead of the other node's cordon.
        assertThat(seq.get(node + "-1")).isLessThan(seq.get(node + "-4"));
        assertThat(seq.get(node + "-4")).isLessThan(otherSeq.get(node + "-0"));
    }

    @Test
    void anUrgentEventStaysBehindAnEarlierEventOfItsOwnSubject() throws Exception {
        String node = "lane-" + CloudEvents.uniqueId().substring(0, 8);
        List<Event> batch = List.of(cordoned(node + "-0", node, now), notice(node + "-1", node, now.plusMillis(1)));

        IngestReceipt receipt = pipeline.submit(batch).toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(receipt.accepted()).isEqualTo(2);
        Map<String, Long> seq = seqs(node);
        assertThat(seq.get(node + "-0")).isLessThan(seq.get(node + "-1"));
    }

    private void awaitAWriterWaitingForTheLock() throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            try (Connection c = dataSource.getConnection();
                    PreparedStatement ps = c.prepareStatement(
                            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the writer never waited for the commit-order lock");
    }

    private Map<String, Long> seqs(String node) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT event_id, seq FROM event_log WHERE subject = ?")) {
            ps.setString(1, node);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}
