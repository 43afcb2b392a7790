package io.lifeline.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Scopes set the keys and the rendered subject, nest, restore what was there, and travel to another thread. */
class LogContextTest {

    @AfterEach
    void clean() {
        MDC.remove(LogContext.JOB);
        MDC.remove(LogContext.NODE);
        MDC.remove(LogContext.ACTION);
        MDC.remove(LogContext.SUBJECT);
        MDC.remove(LogContext.THREAD);
    }

    @Test
    void aScopeSetsItsKeyAndTheSubjectAndClosingRemovesBoth() {
        try (LogContext job = LogContext.job("team-a/llm")) {
            assertThat(MDC.get(LogContext.JOB)).isEqualTo("team-a/llm");
            assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{job=team-a/llm} ");
        }
        assertThat(MDC.get(LogContext.JOB)).isNull();
        assertThat(MDC.get(LogContext.SUBJECT))
                .as("no subject at all, so the format prints nothing")
                .isNull();
    }

    @Test
    void nestedScopesAddToTheContextAndEachCloseRestoresWhatWasBefore() {
        try (LogContext node = LogContext.node("gpu-17");
                LogContext action = LogContext.action("act-1")) {
            assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{node=gpu-17, action=act-1} ");
            try (LogContext job = LogContext.job("team-a/llm")) {
                assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{job=team-a/llm, node=gpu-17, action=act-1} ");
                try (LogContext other = LogContext.job("team-b/bert")) {
                    assertThat(MDC.get(LogContext.JOB)).isEqualTo("team-b/bert");
                }
                assertThat(MDC.get(LogContext.JOB)).as("the outer job back").isEqualTo("team-a/llm");
            }
            assertThat(MDC.get(LogContext.JOB)).isNull();
            assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{node=gpu-17, action=act-1} ");
        }
        assertThat(MDC.get(LogContext.NODE)).isNull();
        assertThat(MDC.get(LogContext.ACTION)).isNull();
        assertThat(MDC.get(LogContext.SUBJECT)).isNull();
    }

    @Test
    void nullLeavesTheContextAsItIs() {
        try (LogContext job = LogContext.job("team-a/llm");
                LogContext none = LogContext.node(null)) {
            assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{job=team-a/llm} ");
        }
        assertThat(MDC.get(LogContext.SUBJECT)).isNull();
    }

    @Test
    void theWholeContextReplacesWhatAThreadHadAndGivesItBackAtClose() {
        try (LogContext stale = LogContext.of("team-a/old", "gpu-1", "act-old")) {
            try (LogContext fresh = LogContext.of(null, "gpu-2", "act-new")) {
                assertThat(MDC.get(LogContext.JOB)).as("removed, not inherited").isNull();
                assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{node=gpu-2, action=act-new} ");
            }
            assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{job=team-a/old, node=gpu-1, action=act-old} ");
        }
        assertThat(MDC.get(LogContext.SUBJECT)).isNull();
    }

    @Test
    void aThreadStartedInsideAScopeDoesNotTakeItsContextForItsOwn() throws Exception {
        AtomicReference<LogContext.Snapshot> inherited = new AtomicReference<>();
        AtomicReference<Object> afterItsOwnScope = new AtomicReference<>();
        Thread started;
        try (LogContext job = LogContext.job("team-a/llm");
                LogContext action = LogContext.action("act-1")) {
            // As a pool growing, or a client starting its I/O thread on first use, inside a step.
            started = new Thread(() -> {
                inherited.set(LogContext.current());
                try (LogContext node = LogContext.node("gpu-2")) {
                    assertThat(MDC.get(LogContext.SUBJECT)).isEqualTo("{node=gpu-2} ");
                }
                afterItsOwnScope.set(MDC.get(LogContext.SUBJECT));
            });
            started.start();
            started.join(10_000);
        }
        assertThat(inherited.get()).isEqualTo(new LogContext.Snapshot(null, null, null));
        assertThat(afterItsOwnScope.get())
                .as("closing its own scope does not bring the inherited one back")
                .isNull();
    }

    @Test
    void aSnapshotOpensTheSameContextOnAnotherThreadAndLeavesThatThreadAsItWas() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // The pool's thread starts outside any scope.
            pool.submit(() -> {}).get(10, TimeUnit.SECONDS);
            LogContext.Snapshot taken;
            try (LogContext job = LogContext.job("team-a/llm");
                    LogContext action = LogContext.action("act-1")) {
                taken = LogContext.current();
            }
            assertThat(taken).isEqualTo(new LogContext.Snapshot("team-a/llm", null, "act-1"));
            AtomicReference<Object> seen = new AtomicReference<>();
            CompletableFuture.runAsync(taken.wrap(() -> seen.set(MDC.get(LogContext.SUBJECT))), pool)
                    .get(10, TimeUnit.SECONDS);
            assertThat(seen.get()).isEqualTo("{job=team-a/llm, action=act-1} ");
            Object after = pool.submit(() -> MDC.get(LogContext.SUBJECT)).get(10, TimeUnit.SECONDS);
            assertThat(after).as("the pool's thread is clean again").isNull();
        } finally {
            pool.shutdownNow();
        }
    }
}
