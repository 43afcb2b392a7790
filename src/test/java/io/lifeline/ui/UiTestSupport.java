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
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import java.time.Duration;
import java.time.Instant;
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
                        ReliabilityView.class));
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
