package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.textfield.TextField;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.security.identity.Role;
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The confirmation dialog, the actions queue and the audit log, against an in-memory action service. */
@QuarkusTest
class ActionViewsTest {

    private final FakeActions fake = new FakeActions();

    @BeforeEach
    void setUp() {
        UiTestSupport.setup(Role.OPERATOR);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void theDialogShowsTheDryRunImpactThenFollowsTheActionToItsEnd() {
        ActionDialog d = new ActionDialog(
                        fake.gateway(),
                        new ActionRequest(ActionKind.CHECKPOINT_NOW, UiTestSupport.JOB, Map.of(), ""),
                        UiSession.caller())
                .start();
        UiTestSupport.await(() -> d.shownImpact() != null);
        String impact =
                _get(Div.class, s -> s.withId("action-impact")).getElement().getTextRecursively();
        assertThat(impact)
                .contains("12.5 GPU-h")
                .contains("7 min")
                .contains("128")
                .contains(UiTestSupport.JOB)
                .contains("older than the objective");
        assertThat(fake.actions).isEmpty();
        _setValue(_get(TextField.class, s -> s.withId("action-reason")), "before the maintenance");
        _click(_get(Button.class, s -> s.withId("action-confirm")));
        UiTestSupport.await(() -> d.shownAction() != null && d.shownAction().state() == ActionState.SUCCEEDED);
        assertThat(fake.actions.values()).singleElement().satisfies(a -> {
            assertThat(a.reason()).isEqualTo("before the maintenance");
            assertThat(a.kind()).isEqualTo(ActionKind.CHECKPOINT_NOW);
        });
        assertThat(_get(Div.class, s -> s.withId("action-progress"))
                        .getElement()
                        .getTextRecursively())
                .contains("succeeded")
                .contains("checkpoint saved");
    }

    @Test
    void aRefusedDryRunSaysWhichFieldAndOffersNoConfirm() {
        ActionDialog d = new ActionDialog(
                        fake.gateway(),
                        new ActionRequest(ActionKind.RESCALE, UiTestSupport.JOB, Map.of("workers", "0"), ""),
                        UiSession.caller())
                .start();
        Div impact = _get(Div.class, s -> s.withId("action-impact"));
        UiTestSupport.await(() -> impact.getElement().getTextRecursively().contains("Refused"));
        assertThat(impact.getElement().getTextRecursively())
                .contains("params.workers")
                .contains("12..16");
        assertThat(_get(Button.class, s -> s.withId("action-confirm")).isEnabled())
                .isFalse();
        assertThat(d.shownImpact()).isNull();
    }

    @Test
    void theActionsViewListsTheQueueWithStepsAndCancels() {
        fake.submit(new ActionRequest(ActionKind.DRAIN, "spot-p5-0001", Map.of(), "reclaim"), UiSession.caller(), null);
        ActionsView view = new ActionsView(
                fake.gateway(), Arc.container().instance(DashboardData.class).get());
        UI.getCurrent().add(view);
        UiTestSupport.await(() -> GridKt._size(view.grid()) == 1);
        assertThat(GridKt._getFormattedRow(view.grid(), 0)).contains("drain", "spot-p5-0001");
        view.cancel(GridKt._get(view.grid(), 0));
        UiTestSupport.await(() ->
                GridKt._size(view.grid()) == 1 && GridKt._get(view.grid(), 0).state() == ActionState.CANCELLED);
        assertThat(ActionsView.steps(GridKt._get(view.grid(), 0)).getElement().getTextRecursively())
                .isNotNull();
    }

    @Test
    void anEngagedAutomationBrakeShowsAboveTheActionsAndAnOperatorResetsItWithAReason() {
        io.lifeline.policy.AutomationBrakeService brake = Arc.container()
                .instance(io.lifeline.policy.AutomationBrakeService.class)
                .get();
        brake.reset(io.lifeline.security.identity.Caller.unrestricted("tests"), "before the banner test");
        // Three drains of a two-node pool within the window: the third engages the brake.
        for (int i = 0; i < 3; i++) {
            brake.admit(
                    new io.lifeline.domain.policy.AutomationBrake.Target("ui-brake-" + i, "ui-brake-pool", 2),
                    io.lifeline.domain.policy.PolicyName.FATAL_XID_DRAIN);
        }
        ActionsView view = new ActionsView(
                fake.gateway(),
                Arc.container().instance(DashboardData.class).get(),
                Arc.container().instance(BrakeGateway.class).get());
        UI.getCurrent().add(view);
        com.vaadin.flow.component.html.Span state =
                _get(com.vaadin.flow.component.html.Span.class, s -> s.withId("brake-state"));
        UiTestSupport.await(() -> state.getText().contains("engaged"));
        assertThat(state.getText()).contains("fatal-xid-drain's drain of ui-brake-2", "1 decision(s) held");
        // A drain dialog says what the brake would do with a policy's drain of a node now.
        ActionDialog dialog = new ActionDialog(
                        Arc.container().instance(ActionsGateway.class).get(),
                        new ActionRequest(ActionKind.DRAIN, "ui-brake-9", Map.of(), ""),
                        UiSession.caller())
                .start();
        Div brakeLine = _get(Div.class, s -> s.withId("action-brake"));
        UiTestSupport.await(
                () -> brakeLine.getText() != null && brakeLine.getText().contains("held"));
        assertThat(brakeLine.getText())
                .contains("a policy's drain of this node now: held: the automation brake is" + " engaged since");
        dialog.close();
        Button reset = _get(Button.class, s -> s.withId("brake-reset"));
        assertThat(reset.isVisible()).isTrue();
        _click(reset);
        _setValue(_get(TextField.class, s -> s.withId("brake-reason")), "XIDs from a test");
        _click(_get(Button.class, s -> s.withId("brake-reset-confirm")));
        UiTestSupport.await(() -> state.getText().contains("released"));
        assertThat(brake.refresh().isEngaged()).isFalse();
        assertThat(brake.refresh().lastReset().reason()).isEqualTo("XIDs from a test");
        assertThat(reset.isVisible()).isFalse();
    }

    @Test
    void theAuditViewFiltersByActorAndKind() {
        fake.submit(
                new ActionRequest(ActionKind.CHECKPOINT_NOW, UiTestSupport.JOB, Map.of(), "one"),
                UiSession.caller(),
                null);
        fake.submit(new ActionRequest(ActionKind.DRAIN, "spot-p5-0002", Map.of(), "two"), UiSession.caller(), null);
        AuditView view = new AuditView(fake.gateway());
        UI.getCurrent().add(view);
        UiTestSupport.await(() -> GridKt._size(view.grid()) == 2);
        _setValue(_get(TextField.class, s -> s.withId("audit-target")), "spot-p5-0002");
        UiTestSupport.await(() -> GridKt._size(view.grid()) == 1);
        assertThat(GridKt._get(view.grid(), 0).reason()).isEqualTo("two");
        _setValue(_get(TextField.class, s -> s.withId("audit-target")), "");
        _setValue(_get(TextField.class, s -> s.withId("audit-actor")), "nobody");
        UiTestSupport.await(() -> GridKt._size(view.grid()) == 0);
        assertThat(_get(Div.class, s -> s.withId("audit-status")).getElement().getTextRecursively())
                .contains("Nothing");
    }

    @Test
    void withoutAnActionServiceTheViewsSaySoInsteadOfFailing() {
        ActionsGateway none = new ActionsGateway(() -> null, () -> null);
        ActionsView actions = new ActionsView(
                none, Arc.container().instance(DashboardData.class).get());
        UI.getCurrent().add(actions);
        assertThat(_get(Div.class, s -> s.withId("actions-status")).getElement().getTextRecursively())
                .contains("unavailable");
        UI.getCurrent().remove(actions);
        AuditView audit = new AuditView(none);
        UI.getCurrent().add(audit);
        assertThat(_get(Div.class, s -> s.withId("audit-status")).getElement().getTextRecursively())
                .contains("unavailable");
    }
}
