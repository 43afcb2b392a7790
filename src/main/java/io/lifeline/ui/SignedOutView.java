package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;

/**
 * Where a page of a session that was signed out while it was open lands (the security gate lets no later request of
 * that session through): it shows no data and sends the browser to the sign-in page, which is not a Vaadin view.
 */
@Route("signed-out")
@PageTitle("Signed out · Lifeline")
public class SignedOutView extends VerticalLayout {

    public SignedOutView() {
        getElement().setAttribute("role", "main");
        Anchor signIn = new Anchor("login", "Sign in");
        signIn.setRouterIgnore(true);
        add(new Paragraph("You are signed out."), signIn);
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        e.getUI().getPage().setLocation("login");
    }
}
