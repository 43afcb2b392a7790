package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.junit.jupiter.api.Test;

/** The security schemes of the OpenAPI document, with single sign-on off (the served default) and on. */
class OpenApiSecurityTest {

    @Test
    void withoutSignOnOnlyTheTokenIsDeclaredAndTheFrameworksSchemeWithoutUrlIsGone() {
        OpenAPI doc = withFrameworkScheme();
        OpenApiSecurity.declare(doc, Optional.empty());
        assertThat(doc.getComponents().getSecuritySchemes()).containsOnlyKeys(OpenApiSecurity.SCHEME);
        assertThat(doc.getSecurity()).hasSize(1);
    }

    @Test
    void withSignOnTheOpenIdConnectSchemePointsAtTheDiscoveryDocument() {
        OpenAPI doc = withFrameworkScheme();
        OpenApiSecurity.declare(doc, Optional.of("https://idp.example.org/realms/ml/"));
        SecurityScheme oidc = doc.getComponents().getSecuritySchemes().get(OpenApiSecurity.OIDC_SCHEME);
        assertThat(oidc.getType()).isEqualTo(SecurityScheme.Type.OPENIDCONNECT);
        assertThat(oidc.getOpenIdConnectUrl())
                .isEqualTo("https://idp.example.org/realms/ml/.well-known/openid-configuration");
        assertThat(doc.getComponents().getSecuritySchemes())
                .containsOnlyKeys(OpenApiSecurity.SCHEME, OpenApiSecurity.OIDC_SCHEME);
        // Either scheme authenticates: two alternative requirements.
        assertThat(doc.getSecurity()).hasSize(2);
    }

    private static OpenAPI withFrameworkScheme() {
        OpenAPI doc = OASFactory.createOpenAPI().components(OASFactory.createComponents());
        doc.getComponents()
                .addSecurityScheme(
                        OpenApiSecurity.FRAMEWORK_OIDC_SCHEME,
                        OASFactory.createSecurityScheme().type(SecurityScheme.Type.OPENIDCONNECT));
        return doc;
    }
}
