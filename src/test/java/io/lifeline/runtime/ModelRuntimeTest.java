package io.lifeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.store.RetryLaterException;
import java.lang.reflect.Proxy;
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

    private final ModelRuntime runtime = new ModelRuntime(LiveModel.create(Clock.systemUTC()), config(2));
    private final CountDownLatch release = new CountDownLatch(1);

    private static IngestConfig config(int batches) {
        return (IngestConfig) Proxy.newProxyInstance(IngestConfig.class.getClassLoader(),
                new Class<?>[] {IngestConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("applyQueueBatches")) {
                        return batches;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

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
    void batchesAreBoundedButUrgentReadsAreStillTaken() throws Exception {
        block();
        runtime.read(m -> null);
        runtime.read(m -> null);
        assertThatThrownBy(() -> runtime.enqueue(List.of(new Event("e1", "test://runtime", EventType.NODE_READY,
                "n1", Instant.now(), new NodeData.Ready())),
                Duration.ofMillis(50))).isInstanceOf(RetryLaterException.class).hasMessageContaining("model busy");
        CompletableFuture<String> urgent = runtime.readNow(m -> "answered");
        release.countDown();
        assertThat(urgent.get(5, TimeUnit.SECONDS)).isEqualTo("answered");
        // The room taken by the batches is given back as they are applied.
        assertThat(runtime.read(m -> "again").get(5, TimeUnit.SECONDS)).isEqualTo("again");
        assertThat(runtime.read(m -> "and again").get(5, TimeUnit.SECONDS)).isEqualTo("and again");
        assertThat(runtime.read(m -> "still").get(5, TimeUnit.SECONDS)).isEqualTo("still");
    }
}
