package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.component.textfield.TextArea;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.alert.store.SilenceStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.ui.AlertsGateway.AlertRow;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The alerts view against alerts and silences stored in the real alert store. */
@QuarkusTest
class AlertsViewTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private final String node = "ui-alert-node-" + tag;
    private AlertStore store;
    private Alert firing;
    private Alert pending;
    private Alert resolved;

    @BeforeEach
    void setUp() throws Exception {
        store = Arc.container().instance(AlertStore.class).get();
        Instant now = Instant.now();
        firing = alert(
                "f",
                AlertRule.FATAL_XID,
                "critical",
                Map.of("node", node, "gpu", "3"),
                AlertState.FIRING,
                // Recent: the view lists the newest 1,000 firing alerts first, and earlier tests of the suite fire
                // many.
                now.minus(Duration.ofMinutes(3)),
                null);
        pending = alert(
                "p",
                AlertRule.CHECKPOINT_STALE,
                "warning",
                Map.of("job", "ui/" + tag),
                AlertState.PENDING,
                now.minus(Duration.ofMinutes(2)),
                null);
        resolved = alert(
                "r",
                AlertRule.FATAL_XID,
                "critical",
                Map.of("node", node, "gpu", "5"),
                AlertState.RESOLVED,
                now.minus(Duration.ofHours(2)),
                now.minus(Duration.ofHours(1)));
        store.recordEvaluation(List.of(), List.of(firing, pending, resolved), List.of(), now);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void showsFiringPendingAndResolvedAlertsWithRuleSeverityLabelsAndSilencedBy() throws Exception {
        Silence muting = new Silence(
                "ui-sil-" + tag,
                List.of(Matcher.equal("gpu", "5"), Matcher.equal("node", node)),
                Instant.now().minusSeconds(5),
                Instant.now().plus(Duration.ofHours(1)),
                "test-operator",
                "known bad");
        Arc.container().instance(SilenceStore.class).get().insert(muting, Instant.now());
        AlertsView view = open(Role.OPERATOR);
        UiTestSupport.await(() -> row(view, firing).isPresent()
                && row(view, resolved).isPresent()
                && row(view, pending).isPresent());
        String f = String.join(" ", GridKt._getFormattedRow(view.grid(), index(view, firing)));
        assertThat(f).contains("firing", "critical", "GpuFatalXid (fatal-xid)", "gpu=3", "node=" + node, "min ago");
        assertThat(row(view, firing).orElseThrow().silencedBy()).isEmpty();
        String r = String.join(" ", GridKt._getFormattedRow(view.grid(), index(view, resolved)));
        assertThat(r).contains("resolved", "gpu=5", muting.id());
        String p = String.join(" ", GridKt._getFormattedRow(view.grid(), index(view, pending)));
        assertThat(p).contains("pending", "warning", "CheckpointFreshnessBreached", "job=ui/" + tag);
        assertThat(view.silences().getListDataView().getItems().map(Silence::id))
                .contains(muting.id());
        assertThat(_find(SideNavItem.class)).anySatisfy(i -> {
            assertThat(i.getLabel()).isEqualTo("Alerts");
            assertThat(i.getPath()).isEqualTo("alerts");
        });
    }

    @Test
    void filtersByStateAndByRule() {
        AlertsView view = open(Role.VIEWER);
        UiTestSupport.await(() -> row(view, pending).isPresent());
        _setValue(view.stateFilter(), "pending");
        UiTestSupport.await(
                () -> row(view, firing).isEmpty() && row(view, pending).isPresent());
        assertThat(items(view)).allMatch(a -> a.state() == AlertState.PENDING);
        _setValue(view.stateFilter(), AlertsView.ALL);
        _setValue(view.ruleFilter(), "fatal-xid");
        UiTestSupport.await(
                () -> row(view, pending).isEmpty() && row(view, firing).isPresent());
        assertThat(items(view)).allMatch(a -> a.rule().equals("fatal-xid"));
        assertThat(row(view, resolved)).isPresent();
    }

    @Test
    void anOperatorSilencesAnAlertFromItsLabelsThenExpiresTheSilence() {
        AlertsView view = open(Role.OPERATOR);
        UiTestSupport.await(() -> row(view, firing).isPresent());
        Button silence = (Button) GridKt._getCellComponent(view.grid(), index(view, firing), "silence");
        _click(silence);
        SilenceDialog dialog = _get(SilenceDialog.class);
        assertThat(dialog.labels().getValue()).contains("node=" + node, "gpu=3", "severity=critical");
        _click(_get(Button.class, s -> s.withId("silence-confirm")));
        UiTestSupport.await(() -> _get(Div.class, s -> s.withId("silence-error"))
                .getElement()
                .getTextRecursively()
                .contains("comment: required"));
        _setValue(_get(TextArea.class, s -> s.withId("silence-comment")), "replacing the GPU");
        _click(_get(Button.class, s -> s.withId("silence-confirm")));
        UiTestSupport.await(
                () -> row(view, firing).map(a -> !a.silencedBy().isEmpty()).orElse(false));
        String id = row(view, firing).orElseThrow().silencedBy().get(0);
        Silence made = view.silences()
                .getListDataView()
                .getItems()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow();
        assertThat(made.comment()).isEqualTo("replacing the GPU");
        assertThat(made.createdBy()).startsWith("test-operator");
        assertThat(made.matches(firing.labels())).isTrue();
        assertThat(made.matches(resolved.labels())).isFalse();
        assertThat(Duration.between(made.startsAt(), made.endsAt())).isEqualTo(Duration.ofHours(2));

        int at = view.silences()
                .getListDataView()
                .getItems()
                .map(Silence::id)
                .toList()
                .indexOf(id);
        _click((Button) GridKt._getCellComponent(view.silences(), at, "expire"));
        UiTestSupport.await(
                () -> row(view, firing).map(a -> a.silencedBy().isEmpty()).orElse(false)
                        && view.silences().getListDataView().getItems().noneMatch(s -> s.id().equals(id)));
    }

    @Test
    void aViewerSeesNoSilenceButtonsAndTheGatewayRefusesThem() {
        AlertsView view = open(Role.VIEWER);
        UiTestSupport.await(() -> row(view, firing).isPresent());
        assertThat(view.showsSilenceButtons()).isFalse();
        assertThat(view.grid().getColumnByKey("silence")).isNull();
        assertThat(view.silences().getColumnByKey("expire")).isNull();
        AlertsGateway gateway = Arc.container().instance(AlertsGateway.class).get();
        Caller viewer = Caller.ofToken("t", "test-viewer", Role.VIEWER, List.of());
        assertThatThrownBy(() -> gateway.silence(viewer, Map.of("node", node), Duration.ofHours(1), "no")
                        .get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(io.lifeline.security.identity.AccessDeniedException.class);
        assertThatThrownBy(() -> gateway.expire(viewer, "whatever").get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(io.lifeline.security.identity.AccessDeniedException.class);
    }

    private static AlertsView open(Role role) {
        UiTestSupport.setup(role);
        UI.getCurrent().navigate("alerts");
        return UiTestSupport.view(AlertsView.class);
    }

    private static List<AlertRow> items(AlertsView view) {
        return view.grid().getListDataView().getItems().toList();
    }

    private static Optional<AlertRow> row(AlertsView view, Alert a) {
        return items(view).stream()
                .filter(r -> r.fingerprint().equals(a.fingerprint()))
                .findFirst();
    }

    private static int index(AlertsView view, Alert a) {
        return items(view).stream().map(AlertRow::fingerprint).toList().indexOf(a.fingerprint());
    }

    private Alert alert(
            String suffix,
            AlertRule rule,
            String severity,
            Map<String, String> extra,
            AlertState state,
            Instant active,
            Instant resolvedAt) {
        Map<String, String> labels = new java.util.TreeMap<>(extra);
        labels.put("alertname", rule.alertName());
        labels.put("severity", severity);
        Instant firingSince = state == AlertState.PENDING ? null : active.plusSeconds(60);
        return new Alert(
                "uitest-" + tag + "-" + suffix,
                rule,
                labels,
                Map.of("summary", "test " + suffix),
                state,
                active,
                firingSince,
                resolvedAt,
                Instant.now(),
                1.0,
                null,
                List.of());
    }
}
