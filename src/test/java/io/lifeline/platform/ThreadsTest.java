package io.lifeline.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadsTest {

    @Test
    void aFactoryMakesNumberedDaemonsThatLogWhatEscapes() {
        ThreadFactory f = Threads.daemon("lifeline-test-pool");
        Thread a = f.newThread(() -> {});
        Thread b = f.newThread(() -> {});
        assertThat(a.getName()).isEqualTo("lifeline-test-pool-1");
        assertThat(b.getName()).isEqualTo("lifeline-test-pool-2");
        assertThat(a.isDaemon()).isTrue();
        assertThat(a.getUncaughtExceptionHandler()).isSameAs(Threads.LOG_UNCAUGHT);
        assertThat(Threads.daemon("lifeline-test-other").newThread(() -> {}).getName())
                .isEqualTo("lifeline-test-other-1");
    }

    @Test
    void aLoopThreadHasExactlyItsNameAndRunsItsTask() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        Thread t = Threads.start("lifeline-test-loop", ran::countDown);
        assertThat(t.getName()).isEqualTo("lifeline-test-loop");
        assertThat(t.isDaemon()).isTrue();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        t.join(10_000);
        Thread notStarted = Threads.daemon("lifeline-test-later", () -> {});
        assertThat(notStarted.getState()).isEqualTo(Thread.State.NEW);
    }

    @Test
    void aFailureThatEscapesEndsTheThreadWithoutReachingTheDefaultHandler() throws InterruptedException {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        CountDownLatch reachedDefault = new CountDownLatch(1);
        Thread.setDefaultUncaughtExceptionHandler((th, e) -> reachedDefault.countDown());
        try {
            Thread t = Threads.start("lifeline-test-failing", () -> {
                throw new IllegalStateException("boom");
            });
            t.join(10_000);
            assertThat(t.isAlive()).isFalse();
            assertThat(reachedDefault.getCount()).isEqualTo(1);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
