package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A viewer limited to namespace A signed in to the dashboard in headless Chromium, beside team B and the demo fleet's
 * teams: every page (overview, fleet, jobs, a job, actions, audit, alerts, reliability) shows A's jobs and what belongs to them,
 * none of B's or the demo's jobs, events, actions or alerts; B's job page reads as unknown; and what is pushed to an
 * open page later stays within A.
 */
@QuarkusTest
class ScopedDashboardBrowserTest {

    /** Namespaces of the demo fleet, none of which the viewer may see. */
    private static final List<String> DEMO = List.of("research/", "vision/", "speech/", "recsys/");

    @TestHTTPResource("/")
    URL root;

    private Browser browser;
    private TwoTeams teams;

    @BeforeEach
    void start() throws Exception {
        Browser.require();
        UiTestSupport.feedDemoData();
        teams = TwoTeams.get();
        browser = new Browser(root);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    /** The page's text (light DOM, which holds the grids' cells) says nothing of team B or the demo's teams. */
    private void nothingOfOthers(String page) {
        String source = browser.driver.getPageSource();
        assertThat(source)
                .as(page)
                .doesNotContain(
                        teams.nsB,
                        teams.nodeB,
                        teams.actions.get("jobB"),
                        teams.actions.get("nodeB"),
                        "scope nb",
                        "scope b<");
        for (String ns : DEMO) {
            assertThat(source).as(page).doesNotContain(ns);
        }
    }

    private boolean shows(String text) {
        return browser.driver.getPageSource().contains(text);
    }

    @Test
    void aNamespaceViewerSeesOnlyItsOwnJobsOnEveryPage() throws Exception {
        browser.signIn(teams.viewerA);
        browser.await(() -> browser.text("kpis").contains("Your jobs' ETTR")
                && browser.text("kpis").contains("2 nodes")
                && shows(teams.nodeA)
                && shows(teams.jobA));
        assertThat(browser.text("kpis")).doesNotContain("Fleet ETTR");
        nothingOfOthers("overview");
        browser.shot("scoped-overview");

        browser.open("fleet");
        browser.await(() -> browser.chartDrawn("fleet-heatmap"));
        browser.await(() -> nodesOnHeatMap().size() == 2);
        assertThat(nodesOnHeatMap()).containsExactlyInAnyOrder(teams.nodeA, teams.nodeS);
        nothingOfOthers("fleet");
        browser.open("fleet?node=" + teams.nodeS);
        browser.await(() -> browser.text("node-jobs").contains(teams.jobA2));
        assertThat(browser.text("node-jobs")).doesNotContain(teams.jobB2);
        assertThat(browser.text("node-gpus")).doesNotContain("b-pod");
        nothingOfOthers("fleet, shared node");

        browser.open("jobs");
        browser.await(() -> browser.text("job-count").equals("2 of 2 jobs") && shows(teams.jobA) && shows(teams.jobA2));
        nothingOfOthers("jobs");
        browser.shot("scoped-jobs");

        browser.open("jobs/" + teams.jobA);
        browser.await(() -> browser.text("job-summary").contains("World size"));
        nothingOfOthers("job detail");
        browser.open("jobs/" + teams.jobB);
        browser.await(() -> browser.text("job-state").contains("No job " + teams.jobB + " is known"));
        assertThat(browser.present("job-summary")
                        && !browser.text("job-summary").isEmpty())
                .isFalse();

        browser.open("actions");
        browser.await(() -> shows(teams.jobA) && shows(teams.nodeA));
        nothingOfOthers("actions");

        browser.open("audit");
        browser.await(() -> shows(teams.jobA) && shows(teams.nodeA));
        nothingOfOthers("audit");

        browser.open("alerts");
        browser.await(() -> shows("scope a<") && shows("scope na<") && shows("scope test"));
        nothingOfOthers("alerts");
        browser.shot("scoped-alerts");

        // Reliability counts A's nodes only: their one pool, none of the demo fleet's.
        browser.open("reliability");
        browser.await(() -> browser.text("rel-grid").contains("scope-pool"));
        assertThat(browser.text("rel-grid")).doesNotContain("spot-p5", "ondemand-p4d");
        assertThat(browser.text("rel-summary")).startsWith("1 group ·");
        nothingOfOthers("reliability");
    }

    @Test
    void whatIsPushedToAnOpenPageStaysWithinTheNamespace() throws Exception {
        // A namespace of its own, so that the jobs added here change nothing the other tests count.
        String ns = "scope-push-" + teams.tag;
        String node = "scope-push-node-" + teams.tag;
        String first = ns + "/first";
        new TestFleet().node(node, "scope-pool").job(first, 0, 0, node);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        browser.signIn(TestTokens.create("scope-push-" + teams.tag, Role.VIEWER, List.of(ns)));
        browser.open("jobs");
        browser.await(() -> browser.text("job-count").equals("1 of 1 jobs") && shows(first));

        String mine = ns + "/pushed";
        String theirs = teams.nsB + "/pushed";
        // B's job is sent first: the snapshot that brings the new job of the page's namespace holds B's as well.
        new TestFleet().job(theirs, 0, 0, teams.nodeB).job(mine, 0, 0, node);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        browser.await(() -> shows(mine) && browser.text("job-count").equals("2 of 2 jobs"));
        assertThat(browser.driver.getPageSource()).doesNotContain(theirs);
        nothingOfOthers("jobs after a push");
    }

    @SuppressWarnings("unchecked")
    private List<String> nodesOnHeatMap() {
        Object names = browser.js("const c = document.getElementById('fleet-heatmap').__chart;"
                + "return c ? c.getOption().yAxis[0].data : [];");
        return (List<String>) names;
    }
}
