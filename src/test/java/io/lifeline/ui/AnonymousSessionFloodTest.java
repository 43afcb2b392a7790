package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.DashboardSessions;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The anonymous flood of the security probe (every {@code GET /} made an HTTP and a Vaadin session kept 30 minutes,
 * about 11 KB each after GC; 85,000 of them put a 1 GB heap in a GC spiral): 20,000 anonymous requests to the
 * dashboard's pages, its sign-in page and Vaadin's own endpoint make no session at all, and the heap after GC stays
 * where it was.
 */
@QuarkusTest
class AnonymousSessionFloodTest {

    private static final int REQUESTS = 20_000;

    @TestHTTPResource("/")
    URL base;

    @Inject
    DashboardSessions sessions;

    @Test
    void anonymousRequestsMakeNoSession() throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        String[] paths = {"", "login", "jobs", "fleet?node=n1", "VAADIN/push", "?v-r=uidl&v-uiId=0"};
        int before = sessions.open();
        long heapBefore = heapAfterGc();
        AtomicInteger cookies = new AtomicInteger();
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        long start = System.nanoTime();
        try {
            java.util.List<Future<?>> work = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                work.add(pool.submit(() -> {
                    for (int i = thread; i < REQUESTS; i += 8) {
                        String path = paths[i % paths.length];
                        HttpRequest.Builder b =
                                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
                        if (path.startsWith("?v-r=uidl")) {
                            b.POST(HttpRequest.BodyPublishers.ofString("{\"csrfToken\":\"x\",\"rpc\":[],\"syncId\":0}"))
                                    .header("Content-Type", "application/json");
                        }
                        HttpResponse<Void> r = http.send(b.build(), HttpResponse.BodyHandlers.discarding());
                        statuses.computeIfAbsent(r.statusCode(), k -> new AtomicInteger())
                                .incrementAndGet();
                        if (r.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("JSESSIONID"))) {
                            cookies.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long seconds = Math.max(1, (System.nanoTime() - start) / 1_000_000_000L);
        long heapAfter = heapAfterGc();
        System.out.printf(
                "%d anonymous requests in %d s (%s): %d session cookies, sessions %d -> %d, heap after GC "
                        + "%d MB -> %d MB%n",
                REQUESTS, seconds, statuses, cookies.get(), before, sessions.open(), heapBefore >> 20, heapAfter >> 20);
        assertThat(cookies.get()).as("session cookies handed out").isZero();
        assertThat(sessions.open()).as("open sessions").isLessThanOrEqualTo(before);
        assertThat(statuses.keySet())
                .as("answers: the sign-in page, redirects to it, Vaadin told its session expired")
                .containsOnly(200, 303);
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
