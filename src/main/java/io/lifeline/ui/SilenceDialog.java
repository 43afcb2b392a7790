package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.checkbox.CheckboxGroup;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.textfield.TextArea;
import io.lifeline.security.identity.Caller;
import io.lifeline.ui.AlertsGateway.AlertRow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Silences one alert: the operator picks which of its labels to match (all by default, so only alerts like this one
 * are muted), how long, and says why. The gateway checks the role and the rules again.
 */
class SilenceDialog extends Dialog {

    /** Durations offered, as shown. */
    static final Map<String, Duration> DURATIONS = durations();

    private final AlertsGateway gateway;
    private final AlertRow alert;
    private final Caller caller;
    private final Runnable done;
    private final CheckboxGroup<String> labels = new CheckboxGroup<>("Match alerts with these labels");
    private final Select<String> duration = new Select<>();
    private final TextArea comment = new TextArea("Comment");
    private final Div error = new Div();
    private final Button confirm = new Button("Silence");

    SilenceDialog(AlertsGateway gateway, AlertRow alert, Caller caller, Runnable done) {
        this.gateway = gateway;
        this.alert = alert;
        this.caller = caller;
        this.done = done;
        setId("silence-dialog");
        setHeaderTitle("Silence " + alert.alertName());
        labels.setId("silence-labels");
        List<String> pairs = alert.labelPairs();
        labels.setItems(pairs);
        labels.setValue(new java.util.LinkedHashSet<>(pairs));
        duration.setId("silence-duration");
        duration.setLabel("For");
        duration.setItems(DURATIONS.keySet());
        duration.setValue("2 h");
        comment.setId("silence-comment");
        comment.setPlaceholder("Why are these alerts muted?");
        comment.setRequired(true);
        comment.setWidthFull();
        error.setId("silence-error");
        VerticalLayout body = new VerticalLayout(labels, duration, comment, error);
        body.setPadding(false);
        add(body);
        confirm.setId("silence-confirm");
        confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
        confirm.addClickListener(e -> submit());
        Button cancel = new Button("Cancel", e -> close());
        cancel.setId("silence-cancel");
        getFooter().add(cancel, confirm);
    }

    /** The chosen labels as name → value. */
    Map<String, String> matchers() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : alert.labelPairs()) {
            if (labels.getValue().contains(pair)) {
                int i = pair.indexOf('=');
                out.put(pair.substring(0, i), pair.substring(i + 1));
            }
        }
        return out;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void submit() {
        error.removeAll();
        confirm.setEnabled(false);
        UI ui = UI.getCurrent();
        gateway.silence(caller, matchers(), DURATIONS.get(duration.getValue()), comment.getValue())
                .whenComplete((s, ex) -> {
                    Ui.access(ui, () -> {
                        confirm.setEnabled(true);
                        if (ex != null) {
                            error.add(Ui.error(AlertsGateway.message(ex)));
                            return;
                        }
                        Notifications.info(
                                "Silence " + s.id() + " until " + Format.time(s.endsAt(), UiSession.zone()) + ".");
                        close();
                        done.run();
                    });
                });
    }

    CheckboxGroup<String> labels() {
        return labels;
    }

    Select<String> duration() {
        return duration;
    }

    TextArea comment() {
        return comment;
    }

    private static Map<String, Duration> durations() {
        Map<String, Duration> m = new LinkedHashMap<>();
        m.put("1 h", Duration.ofHours(1));
        m.put("2 h", Duration.ofHours(2));
        m.put("4 h", Duration.ofHours(4));
        m.put("8 h", Duration.ofHours(8));
        m.put("1 day", Duration.ofDays(1));
        m.put("3 days", Duration.ofDays(3));
        m.put("7 days", Duration.ofDays(7));
        return m;
    }
}
