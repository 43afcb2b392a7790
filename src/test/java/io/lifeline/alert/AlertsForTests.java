package io.lifeline.alert;

import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertEngine;
import io.lifeline.domain.alert.AlertRules;
import io.lifeline.domain.alert.AlertSnapshot;
import io.lifeline.domain.alert.AlertSnapshot.FailedAction;
import io.lifeline.runtime.ModelSnapshot;
import java.time.Instant;
import java.util.List;

/** The built-in alert rules evaluated on a model snapshot, outside the application, as {@code AlertEvaluator} does. */
public final class AlertsForTests {

    private final AlertEngine engine = new AlertEngine(AlertRules.defaults(), 1000, 1000);

    /**
     * Evaluates once more (an engine remembers what was pending, so the rules' {@code for} counts across calls) and
     * answers every alert not inactive.
     */
    public List<Alert> evaluate(ModelSnapshot model, List<FailedAction> failedActions, Instant now) {
        AlertSnapshots.ModelPart part = AlertSnapshots.fromModel(model);
        return engine.evaluate(
                        new AlertSnapshot(part.jobs(), part.notices(), part.xids(), part.nodes(), failedActions, null),
                        List.of(),
                        now)
                .alerts();
    }
}
