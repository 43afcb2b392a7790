package io.lifeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.eventlog.RetryLaterException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ModelRuntimeTest {

    private final ModelRuntime runtime =
            new ModelRuntime(LiveModel.create(Clock.systemUTC()), ModelRuntimes.config(3, 1024 * 1024));
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        runtime.stop();
    }

    /** Occupies the model thread until {@link #release} opens. */
    private CompletableFuture<Object> block() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Object> f = runtime.read(m -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        return f;
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void anUrgentReadRunsAheadOfQueuedBatchesWhichKeepTheirOrder() throws Exception {
        block();
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Object> first = runtime.read(m -> order.add("first"));
        CompletableFuture<Object> second = runtime.read(m -> order.add("second"));
        CompletableFuture<Object> urgent = runtime.readNow(m -> order.add("urgent"));
        release.countDown();
        CompletableFuture.allOf(first, second, urgent).get(5, TimeUnit.SECONDS);
        assertThat(order).containsExactly("urgent", "first", "second");
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void thePriorityLanesEventsAreAppliedAheadOfQueuedBatchesInTheirOwnOrder() throws Exception {
        ModelRuntime roomy =
                new ModelRuntime(LiveModel.create(Clock.systemUTC()), ModelRuntimes.config(100, 1024 * 1024));
        CountDownLatch open = new CountDownLatch(1);
        try {
            List<String> applied = new CopyOnWriteArrayList<>();
            roomy.addApplyListener((e, outcome, m) -> applied.add(e.id()));
            roomy.read(m -> {
                try {
                    open.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            });
            List<Event> batch = List.of(ready("batch-1"), ready("batch-2"));
            roomy.enqueueStored(batch, new long[] {1, 2}, roomy.admit(batch));
            List<Event> notice = List.of(ready("urgent-1"));
            roomy.enqueueUrgent(notice, new long[] {3}, roomy.admit(notice));
            List<Event> xid = List.of(ready("urgent-2"));
            roomy.enqueueUrgent(xid, new long[] {4}, roomy.admit(xid));
            open.countDown();
            roomy.barrier().get(5, TimeUnit.SECONDS);
            assertThat(applied).containsExactly("urgent-1", "urgent-2", "batch-1", "batch-2");
            assertThat(roomy.queuedEvents()).isZero();
        } finally {
            open.countDown();
            roomy.stop();
        }
    }

    @Test
    void aStoredSubmissionGetsEachEventsOutcomeAlsoWhenTheFollowerAppliedItFirst() throws Exception {
        ModelRuntime roomy =
                new ModelRuntime(LiveModel.create(Clock.systemUTC()), ModelRuntimes.config(100, 1024 * 1024));
        try {
            Instant t = Instant.now();
            Event registered = new Event(
                    "r",
                    "test://runtime",
                    EventType.NODE_REGISTERED,
                    "n1",
                    t,
                    new NodeData.Registered("p", io.lifeline.domain.event.CapacityType.SPOT, null, null, 8, null));
            Event olderReady = new Event(
                    "old", "test://runtime", EventType.NODE_READY, "n1", t.minusSeconds(60), new NodeData.Ready());
            Event ready = new Event(
                    "new", "test://runtime", EventType.NODE_READY, "n1", t.plusSeconds(1), new NodeData.Ready());
            Event olderCordon = new Event(
                    "old-cordon",
                    "test://runtime",
                    EventType.NODE_CORDONED,
                    "n1",
                    t.minusSeconds(60),
                    new NodeData.Cordoned("x"));
            // The follower read this replica's row 2 back before its submission was queued.
            roomy.enqueueFollowed(List.of(registered, olderCordon), new long[] {1, 2}, Duration.ofSeconds(5));
            List<Event> batch = List.of(olderCordon, olderReady, ready);

            List<io.lifeline.domain.event.ApplyOutcome> outcomes = roomy.enqueueStored(
                            batch, new long[] {2, 3, 4}, roomy.admit(batch))
                    .get(5, TimeUnit.SECONDS);

            assertThat(outcomes)
                    .extracting(io.lifeline.domain.event.ApplyOutcome::reason)
                    .containsExactly(
                            io.lifeline.domain.event.NotAppliedReason.STALE,
                            io.lifeline.domain.event.NotAppliedReason.STALE,
                            null);
            assertThat(outcomes.get(2).changed()).isTrue();
        } finally {
            roomy.stop();
        }
    }

    private static Event ready(String id) {
        return new Event(id, "test://runtime", EventType.NODE_READY, "n1", Instant.now(), new NodeData.Ready());
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void batchesAreBoundedButUrgentReadsAreStillTaken() throws Exception {
        block();
        runtime.read(m -> null);
        runtime.read(m -> null);
        assertThatThrownBy(() -> runtime.enqueue(List.of(ready("e1"), ready("e2")), Duration.ofMillis(50)))
                .isInstanceOf(RetryLaterException.class)
                .hasMessageContaining("model busy");
        CompletableFuture<String> urgent = runtime.readNow(m -> "answered");
        release.countDown();
        assertThat(urgent.get(5, TimeUnit.SECONDS)).isEqualTo("answered");
        // The room taken by the batches is given back as they are applied.
        assertThat(runtime.read(m -> "again").get(5, TimeUnit.SECONDS)).isEqualTo("again");
        assertThat(runtime.read(m -> "and again").get(5, TimeUnit.SECONDS)).isEqualTo("and again");
        assertThat(runtime.read(m -> "still").get(5, TimeUnit.SECONDS)).isEqualTo("still");
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void admissionIsRefusedWithoutWaitingWhenTheQueueHasNoRoomForTheEvents() throws Exception {
        block();
        ModelRuntime.Admission first = runtime.admit(List.of(ready("e1"), ready("e2")));
        runtime.enqueue(List.of(ready("e1"), ready("e2")), first);
        assertThat(runtime.queuedEvents()).isEqualTo(2);
        assertThat(runtime.queuedBytes()).isPositive();
        assertThatThrownBy(() -> runtime.admit(List.of(ready("e3"), ready("e4"))))
                .isInstanceOf(RetryLaterException.class)
                .hasMessageContaining("model busy");
        // One more fits: the queue is bounded by events, not batches.
        ModelRuntime.Admission third = runtime.admit(List.of(ready("e3")));
        third.release();
        third.release();
        assertThat(runtime.queuedEvents()).isEqualTo(2);
        release.countDown();
        runtime.barrier().get(5, TimeUnit.SECONDS);
        assertThat(runtime.queuedEvents()).isZero();
        assertThat(runtime.queuedBytes()).isZero();
        assertThat(runtime.appliedCount()).isEqualTo(2);
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void theQueueIsBoundedByEstimatedBytesToo() throws Exception {
        ModelRuntime small = new ModelRuntime(LiveModel.create(Clock.systemUTC()), ModelRuntimes.config(1_000, 1_000));
        try {
            CountDownLatch hold = new CountDownLatch(1);
            small.read(m -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            });
            // Wait until the model thread holds the read, so the queue is empty of it.
            while (small.queuedEvents() > 0) {
                Thread.sleep(1);
            }
            List<Event> some = List.of(ready("b1"), ready("b2"), ready("b3"));
            small.enqueue(some, small.admit(some));
            assertThatThrownBy(() -> small.admit(some)).isInstanceOf(RetryLaterException.class);
            hold.countDown();
            small.barrier().get(5, TimeUnit.SECONDS);
            // With the queue empty again, a batch larger than the whole room is still taken.
            List<Event> many = new java.util.ArrayList<>();
            for (int i = 0; i < 50; i++) {
                many.add(ready("m" + i));
            }
            small.enqueue(many, small.admit(many));
            small.barrier().get(5, TimeUnit.SECONDS);
            assertThat(small.appliedCount()).isEqualTo(53);
        } finally {
            small.stop();
        }
    }
}
