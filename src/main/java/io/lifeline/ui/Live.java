package io.lifeline.ui;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.shared.Registration;
import io.lifeline.security.Scope;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.DashboardSnapshot;
import java.util.function.Consumer;

/**
 * Wires a view to the shared {@link DashboardData}: while the view is attached, each new snapshot (at most about one
 * a second) is handed to {@code onSnapshot} inside {@code UI.access}, so changes reach the browser by server push.
 * Views compare the view model they derive with the last one and redraw only on change. The snapshots are those of
 * the signed-in caller's {@link io.lifeline.security.Scope} when the view is attached: a caller limited to
 * namespaces is never pushed another team's jobs or nodes.
 */
public final class Live {

    private Live() {}

    public static void bind(Component view, DashboardData data, Consumer<DashboardSnapshot> onSnapshot) {
        view.addAttachListener(attach -> {
            UI ui = attach.getUI();
            Scope scope = UiSession.scope();
            Registration sub = data.subscribe(scope, s -> Ui.access(ui, () -> onSnapshot.accept(s)));
            view.addDetachListener(detach -> {
                sub.remove();
                detach.unregisterListener();
            });
            DashboardSnapshot now = data.current(scope);
            if (!now.isEmpty()) {
                onSnapshot.accept(now);
            }
        });
    }
}
