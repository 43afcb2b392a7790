package io.lifeline.ui;

import com.github.mvysny.kaributesting.v10.MockVaadin;
import com.github.mvysny.kaributesting.v10.Routes;
import com.github.mvysny.kaributesting.v10.mock.MockService;
import com.github.mvysny.kaributesting.v10.mock.MockVaadinServlet;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.di.DefaultInstantiator;
import com.vaadin.flow.di.Instantiator;
import com.vaadin.flow.function.DeploymentConfiguration;
import com.vaadin.flow.server.ServiceException;
import com.vaadin.flow.server.VaadinServletService;
import com.vaadin.quarkus.QuarkusInstantiator;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.event.Event;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Karibu under Quarkus (routes registered by hand, views created by CDI), and the data every UI test reads: the
 * built-in demo scenario simulated over the last 90 minutes and fed through the {@link IngestGateway}, once per run.
 */
final class UiTestSupport {

    static final String JOB = "research/llama3-70b-pretrain";
    private static volatile boolean fed;

    private UiTestSupport() {}

    /** Feeds the simulated fleet once (about 40 nodes, 320 GPUs, a handful of jobs with incidents and checkpoints). */
    static synchronized void feedDemoData() throws Exception {
        if (fed) {
            return;
        }
        Instant now = Instant.now();
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), now.minus(Duration.ofMinutes(90)));
        IngestGateway gateway = Arc.container().instance(IngestGateway.class).get();
        List<Event> events = sim.advanceTo(now);
        for (int i = 0; i < events.size(); i += 2000) {
            gateway.submit(events.subList(i, Math.min(events.size(), i + 2000)))
                    .toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
        }
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        fed = true;
    }

    /**
     * Feeds, through the API, a job {@code hang-ui/NAME} of two ranks whose training stopped: both still beat, a hang
     * is suspected with rank 1 on {@code hang-n2} as the suspect, and both ranks' stacks came (rank 0 waits in
     * {@code all_reduce}, rank 1 reads a shard: the odd one out).
     */
    static String hungJob(String name) throws Exception {
        Instant t0 = Instant.now().minusSeconds(120);
        String job = "hang-ui/" + name;
        String collective = "{\"name\":\"MainThread\",\"main\":true,\"frames\":["
                + "{\"file\":\"train.py\",\"line\":88,\"function\":\"main\"},"
                + "{\"file\":\"train.py\",\"line\":51,\"function\":\"train_step\"},"
                + "{\"file\":\"torch/distributed/distributed_c10d.py\",\"line\":2050,\"function\":\"all_reduce\"}]}";
        String loading = "{\"name\":\"MainThread\",\"main\":true,\"frames\":["
                + "{\"file\":\"train.py\",\"line\":88,\"function\":\"main\"},"
                + "{\"file\":\"train.py\",\"line\":47,\"function\":\"next_batch\"},"
                + "{\"file\":\"loader.py\",\"line\":12,\"function\":\"read_shard\"}]}";
        List<String> events = new ArrayList<>(List.of(
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "job.submitted",
                        job,
                        t0,
                        "{\"namespace\":\"hang-ui\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":1,"
                                + "\"maxRestarts\":3},\"gpusPerNode\":0}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "trainer.rendezvous",
                        job,
                        t0.plusSeconds(1),
                        "{\"runId\":\"r\",\"round\":0,\"worldSize\":2,\"participants\":[{\"node\":\"hang-n1\","
                                + "\"firstRank\":0,\"rankCount\":1},{\"node\":\"hang-n2\",\"firstRank\":1,"
                                + "\"rankCount\":1}]}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "trainer.progress",
                        job,
                        t0.plusSeconds(2),
                        "{\"step\":10}")));
        for (int rank = 0; rank < 2; rank++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/agent",
                    "trainer.step_times",
                    job,
                    t0.plusSeconds(3),
                    "{\"rank\":" + rank + ",\"node\":\"hang-n" + (rank + 1) + "\",\"steps\":10,\"toStep\":10,"
                            + "\"medianSeconds\":0.2,\"sinceStepSeconds\":1,\"phase\":\"training\"}"));
        }
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "lifeline/hang-detector",
                "job.hang_suspected",
                job,
                t0.plusSeconds(60),
                "{\"kind\":\"training\",\"since\":\"" + t0.plusSeconds(2) + "\",\"stalledSeconds\":58,"
                        + "\"thresholdSeconds\":30,\"basis\":\"floor\",\"suspects\":[{\"rank\":1,\"node\":\"hang-n2\","
                        + "\"gpu\":\"0\",\"lastStep\":10,\"why\":\"stopped first, outside any collective\"}],"
                        + "\"evidence\":[\"GPU 0 of hang-n2 idle\"]}"));
        for (int rank = 0; rank < 2; rank++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/agent",
                    "trainer.stacks",
                    job,
                    t0.plusSeconds(62),
                    "{\"requestId\":\"hang-1\",\"rank\":" + rank + ",\"node\":\"hang-n" + (rank + 1)
                            + "\",\"step\":10,\"phase\":\"training\",\"threads\":[" + (rank == 0 ? collective : loading)
                            + "]}"));
        }
        // Both ranks still beat (alive), with no step since step 10.
        for (int rank = 0; rank < 2; rank++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/agent",
                    "trainer.step_times",
                    job,
                    Instant.now().minusSeconds(1),
                    "{\"rank\":" + rank + ",\"node\":\"hang-n" + (rank + 1) + "\",\"steps\":0,\"toStep\":10,"
                            + "\"medianSeconds\":0.2,\"sinceStepSeconds\":118,\"phase\":\"training\"}"));
        }
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        io.quarkus.arc.Arc.container()
                .instance(io.lifeline.runtime.ModelRuntime.class)
                .get()
                .barrier()
                .get(30, java.util.concurrent.TimeUnit.SECONDS);
        return job;
    }

    /** Starts a mock Vaadin session with every dashboard route, signed in as {@code role} (null: not signed in). */
    static void setup(Role role) {
        setupAs(
                role == null
                        ? null
                        : Caller.ofToken("testtoken" + role.ordinal(), "test-" + role.wireName(), role, List.of()));
    }

    /** Starts a mock Vaadin session with every dashboard route, signed in as {@code caller} (null: not signed in). */
    static void setupAs(Caller caller) {
        Routes routes = new Routes();
        routes.getRoutes()
                .addAll(List.of(
                        OverviewView.class,
                        FleetView.class,
                        JobsView.class,
                        JobDetailView.class,
                        SignedOutView.class,
                        ActionsView.class,
                        AuditView.class,
                        AlertsView.class,
                        ReliabilityView.class,
                        ObjectivesView.class));
        MockVaadinServlet servlet = new MockVaadinServlet(routes) {
            @Override
            protected VaadinServletService createServletService(DeploymentConfiguration conf) throws ServiceException {
                MockService service = new MockService(this, conf, UI::new) {
                    @Override
                    public Instantiator getInstantiator() {
                        return new QuarkusInstantiator(
                                new DefaultInstantiator(this), Arc.container().beanManager());
                    }
                };
                service.init();
                getRoutes().register(service.getContext());
                return service;
            }
        };
        MockVaadin.setup(UI::new, servlet);
        if (caller != null) {
            UiSession.signIn(caller);
        }
    }

    static void tearDown() {
        MockVaadin.tearDown();
    }

    /** Runs pushed UI updates until {@code condition} holds (10 s at most). */
    static void await(BooleanSupplier condition) {
        long until = System.currentTimeMillis() + 10_000;
        while (true) {
            MockVaadin.runUIQueue();
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.currentTimeMillis() > until) {
                throw new AssertionError("UI did not reach the expected state within 10 s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The current view. */
    @SuppressWarnings("unchecked")
    static <T> T view(Class<T> type) {
        await(() -> type.isInstance(UI.getCurrent().getCurrentView()));
        return (T) UI.getCurrent().getCurrentView();
    }
}
