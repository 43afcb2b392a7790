package io.lifeline.ui;

import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;

/** Short messages at the bottom of the page. */
final class Notifications {

    private Notifications() {}

    static void error(String text) {
        Notification n = Notification.show(text, 6000, Notification.Position.BOTTOM_START);
        n.addThemeVariants(NotificationVariant.LUMO_ERROR);
    }

    static void info(String text) {
        Notification.show(text, 4000, Notification.Position.BOTTOM_START);
    }
}
