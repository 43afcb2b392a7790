package io.lifeline.security;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * Declares how to authenticate in the OpenAPI document, so Swagger UI offers "Authorize" and clients generated from
 * the document send the header: always the Lifeline token, and the identity provider's OpenID Connect discovery
 * document when single sign-on is on ({@code lifeline.security.oidc.enabled} with {@code quarkus.oidc.auth-server-url}).
 * The framework's own OpenID Connect scheme (added because quarkus-oidc is present, without a discovery URL while
 * sign-on is off) is replaced by this one. Which role each path needs is in {@link AccessRules}, not here.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class OpenApiSecurity implements OASFilter {

    static final String SCHEME = "lifelineToken";
    static final String OIDC_SCHEME = "oidc";
    /** The name quarkus-smallrye-openapi gives the scheme it adds for quarkus-oidc. */
    static final String FRAMEWORK_OIDC_SCHEME = "SecurityScheme";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Config config = ConfigProvider.getConfig();
        boolean sso = config.getOptionalValue("lifeline.security.oidc.enabled", Boolean.class)
                .orElse(false);
        declare(
                openAPI,
                sso ? config.getOptionalValue("quarkus.oidc.auth-server-url", String.class) : Optional.empty());
    }

    /** The schemes for a document, with the identity provider at {@code authServerUrl} when sign-on is on. */
    static void declare(OpenAPI openAPI, Optional<String> authServerUrl) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        if (components.getSecuritySchemes() != null) {
            components.removeSecurityScheme(FRAMEWORK_OIDC_SCHEME);
        }
        components.addSecurityScheme(
                SCHEME,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .bearerFormat("llt_<id>_<secret>")
                        .description("A Lifeline API token. The roles each path needs are listed in docs/api.md."));
        openAPI.addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(SCHEME));
        authServerUrl.filter(u -> !u.isBlank()).ifPresent(url -> {
            String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
            openAPI.getComponents()
                    .addSecurityScheme(
                            OIDC_SCHEME,
                            OASFactory.createSecurityScheme()
                                    .type(SecurityScheme.Type.OPENIDCONNECT)
                                    .openIdConnectUrl(base + "/.well-known/openid-configuration")
                                    .description(
                                            "A bearer JWT from the identity provider (single sign-on); groups map to roles "
                                                    + "by lifeline.security.oidc.groups"));
            openAPI.addSecurityRequirement(
                    OASFactory.createSecurityRequirement().addScheme(OIDC_SCHEME));
        });
    }
}
