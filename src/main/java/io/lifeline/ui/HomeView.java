package io.lifeline.ui;

import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;

/** Start page until the operator dashboard lands: what this is and where the API lives. */
@Route("")
@PageTitle("Lifeline")
public class HomeView extends VerticalLayout {

    public HomeView() {
        addClassName("ll-home");
        add(new H1("Lifeline"));
        add(new Paragraph("Keeps GPU training jobs alive through interruptions: observes nodes, GPUs, schedulers "
                + "and trainers, accounts for every interruption, and acts before work is lost."));
        add(new Paragraph("The REST API needs a token: the first admin token is in .lifeline/admin-token."));
        add(new Anchor("/q/swagger-ui", "API reference (Swagger UI: Authorize with the token)"));
        add(new Anchor("/q/health", "Health"));
    }
}
