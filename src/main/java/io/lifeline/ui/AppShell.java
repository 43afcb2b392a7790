package io.lifeline.ui;

import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.component.page.Push;
import com.vaadin.flow.server.PWA;
import com.vaadin.flow.theme.Theme;
import com.vaadin.flow.theme.lumo.Lumo;

/** Application shell: Lumo theme, server push, and the runtime stylesheet served from frontend/. */
@Push
@Theme(themeClass = Lumo.class)
@StyleSheet("context://styles/app.css")
@PWA(name = "Lifeline", shortName = "Lifeline")
public class AppShell implements AppShellConfigurator {
}
