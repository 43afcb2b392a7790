package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.router.QueryParameters;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.domain.objective.ObjectiveState;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.objective.store.ObjectiveStore;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestFleet;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Objectives page and the job page's "Objective" section, on two objectives fed by hand through
 * {@link ObjectiveService#sample(Instant, List)}: a team whose job (16 GPUs) trained 66 hours at 100 %, then 6 hours at
 * 65 %, against a 95 % target: 1,152 GPU-hours held, a budget of 0.05 x 1,152 = 57.6, 6 x 5.6 = 33.6 spent (21.0 to a
 * spot reclaim, 12.6 to checkpoints), 24.0 left (42 %), ETTR 1,118.4 / 1,152 = 97.1 %; every burn window reads the bad
 * hours only: 0.35 / 0.05 = 7x, past the slow 6x, under the fast 14.4x: burning. A second team at 100 %: met. The
 * first team's job runs in the model, so its page opens.
 */
@QuarkusTest
class ObjectivesViewTest {

    ObjectiveService service;
    List<ObjectiveStore.Stored> before;
    String tag;
    String burningNs;
    String metNs;
    String job;

    @BeforeEach
    void seed() {
        service = Arc.container().instance(ObjectiveService.class).get();
        before = service.objectives();
        tag = UUID.randomUUID().toString().substring(0, 6);
        burningNs = "objui-a" + tag;
        metNs = "objui-b" + tag;
        job = burningNs + "/train";
        new TestFleet().job(job, 0, 0, "objui-n" + tag);
        service.replace(
                List.of(
                        new ObjectiveStore.Stored("burning-" + tag, "namespace:" + burningNs, 0.95, "7d", null, null),
                        new ObjectiveStore.Stored("met-" + tag, "namespace:" + metNs, 0.95, "7d", null, null)),
                "objectives-view-test");
        feed();
    }

    /**
     * The history by hand: a sample an hour over 72 hours, 16 GPUs held; the first 66 hours at 100 %, the last 6 at
     * 65 % (5.6 GPU-hours an hour not productive: 3.5 lost rework to a spot reclaim, 2.1 blocked on checkpoints).
     */
    private void feed() {
        Instant now = Instant.now();
        for (int h = 0; h <= 72; h++) {
            int bad = Math.max(0, h - 66);
            service.sample(
                    now.minus(Duration.ofHours(72 - h)).minusSeconds(1),
                    List.of(sample(job, burningNs, h, bad), sample(metNs + "/train", metNs, h, 0)));
        }
    }

    /**
     * The last samples again, now: nothing added, but the jobs are the scope's again should the scheduled sample of
     * the model (which knows neither job's history) have come in between.
     */
    private void touch() {
        service.sample(Instant.now(), List.of(sample(job, burningNs, 72, 6), sample(metNs + "/train", metNs, 72, 0)));
    }

    private static JobSample sample(String job, String ns, int hours, int badHours) {
        Map<Bucket, Long> m = new EnumMap<>(Bucket.class);
        long hour = 3_600_000L;
        m.put(Bucket.PRODUCTIVE, Math.round((16.0 * hours - 5.6 * badHours) * hour));
        m.put(Bucket.LOST_REWORK, Math.round(3.5 * badHours * hour));
        m.put(Bucket.CHECKPOINT, Math.round(2.1 * badHours * hour));
        Map<IncidentCause, Double> lost = badHours > 0 ? Map.of(IncidentCause.SPOT_RECLAIM, 3.5 * badHours) : Map.of();
        return new JobSample(job, ns, "alice", "pool-a", m, lost, null);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
        restore();
    }

    /** Puts back the objectives in force before {@link #seed()}. */
    void restore() {
        service.replace(before, "objectives-view-test");
    }

    private static ObjectivesView open(Caller caller, Map<String, String> query) {
        UiTestSupport.setupAs(caller);
        UI.getCurrent().navigate("objectives", QueryParameters.simple(query));
        return UiTestSupport.view(ObjectivesView.class);
    }

    private static Component card(ObjectivesView view, String name) {
        return view.cards()
                .getChildren()
                .filter(c -> c.getId().orElse("").equals("objective-" + name))
                .findFirst()
                .orElseThrow();
    }

    private static String text(Component c, String cls) {
        return c.getChildren()
                .filter(x -> x.getElement().getClassList().contains(cls))
                .findFirst()
                .orElseThrow()
                .getElement()
                .getTextRecursively();
    }

    @Test
    void anAdminSeesEachObjectiveWithItsStateBudgetBurnWhatSpentItAndItsJobs() {
        ObjectivesView view = open(Caller.ofToken("obj-admin" + tag, "test-admin", Role.ADMIN, List.of()), Map.of());
        UiTestSupport.await(() -> view.page() != null
                && view.page().objectives().stream()
                        .anyMatch(s -> s.objective().name().equals("burning-" + tag)));
        Component burning = card(view, "burning-" + tag);
        assertThat(burning.getElement().getTextRecursively()).contains("Burning");
        assertThat(text(burning, "obj-headline")).isEqualTo("namespace " + burningNs + " · ETTR ≥ 95.0 % over 7d");
        assertThat(text(burning, "obj-ettr")).contains("97.1 % (target 95.0 %)");
        assertThat(text(burning, "obj-budget")).contains("33.6 GPU-h spent of 57.6 GPU-h · 24.0 GPU-h left (42 %)");
        assertThat(text(burning, "obj-burn")).isEqualTo("Burn rate: 5m 7.0× · 30m 7.0× ▲ · 1h 7.0× · 6h 7.0× ▲");
        assertThat(text(burning, "obj-exhaustion")).contains("in ");
        assertThat(text(burning, "obj-verdict")).startsWith("Slow burn");
        Div bar = (Div) burning.getChildren()
                .filter(c -> c.getElement().getClassList().contains("ll-budget-bar"))
                .findFirst()
                .orElseThrow();
        assertThat(bar.getElement().getAttribute("aria-valuenow")).isEqualTo("58");
        assertThat(text(burning, "obj-spent")).contains("spot reclaim", "21.0 GPU-h", "checkpoint", "12.6 GPU-h");
        List<Anchor> links = burning.getChildren()
                .filter(c -> c.getElement().getClassList().contains("obj-jobs"))
                .flatMap(Component::getChildren)
                .filter(Anchor.class::isInstance)
                .map(Anchor.class::cast)
                .toList();
        assertThat(links).extracting(Anchor::getHref).containsExactly("jobs/" + burningNs + "/train");

        Component met = card(view, "met-" + tag);
        assertThat(met.getElement().getTextRecursively()).contains("Met");
        assertThat(view.page().objectives())
                .filteredOn(s -> s.objective().name().equals("met-" + tag))
                .extracting(s -> s.state())
                .containsExactly(ObjectiveState.MET);

        assertThat(_find(SideNavItem.class)).anySatisfy(i -> {
            assertThat(i.getLabel()).isEqualTo("Objectives");
            assertThat(i.getPath()).isEqualTo("objectives");
        });
    }

    @Test
    void aViewerLimitedToANamespaceSeesItsObjectiveOnlyAndTheJobFilterComesFromTheUrl() {
        ObjectivesView view =
                open(Caller.ofToken("obj-scoped" + tag, "viewer-obj", Role.VIEWER, List.of(metNs)), Map.of());
        UiTestSupport.await(() -> view.page() != null);
        assertThat(view.page().objectives())
                .extracting(s -> s.objective().name())
                .containsExactly("met-" + tag);
        UiTestSupport.tearDown();

        touch();
        ObjectivesView filtered =
                open(Caller.ofToken("obj-admin2" + tag, "test-admin", Role.ADMIN, List.of()), Map.of("job", job));
        UiTestSupport.await(() -> filtered.page() != null);
        assertThat(filtered.page().objectives())
                .extracting(s -> s.objective().name())
                .containsExactly("burning-" + tag);
    }

    @Test
    void theJobPageShowsTheObjectiveItIsUnderWithALinkToTheObjectivesPage() {
        touch();
        UiTestSupport.setup(Role.VIEWER);
        UI.getCurrent().navigate("jobs/" + job);
        JobDetailView view = UiTestSupport.view(JobDetailView.class);
        UiTestSupport.await(
                () -> view.shownObjectives() != null && !view.shownObjectives().isEmpty());
        assertThat(view.shownObjectives()).extracting(s -> s.objective().name()).containsExactly("burning-" + tag);
        Component section = _find(ObjectiveSection.class).get(0);
        assertThat(section.isVisible()).isTrue();
        assertThat(section.getElement().getTextRecursively())
                .contains("burning-" + tag, "Burning", "97.1 % (target 95.0 %)", "24.0 GPU-h left (42 %)");
        assertThat(_find(Anchor.class).stream().filter(a -> a.getId().orElse("").equals("job-objective-link")))
                .singleElement()
                .satisfies(a -> assertThat(a.getHref()).isEqualTo("objectives?job=" + burningNs + "%2Ftrain"));
    }
}
