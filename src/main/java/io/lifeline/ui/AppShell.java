package io.lifeline.ui;

import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.component.page.Push;
import com.vaadin.flow.server.PWA;

/**
 * Application shell: server push and the runtime stylesheet served from frontend/. Lumo is Vaadin's default theme, so
 * there is no {@code @Theme}: one without an application theme's name makes every page link
 * {@code VAADIN/themes//styles.css}, which is not there and which the browser refuses.
 */
@Push
@StyleSheet("context://styles/app.css")
@PWA(name = "Lifeline", shortName = "Lifeline")
public class AppShell implements AppShellConfigurator {}
