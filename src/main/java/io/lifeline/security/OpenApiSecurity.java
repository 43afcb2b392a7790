package io.lifeline.security;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * Declares the bearer token in the OpenAPI document, so Swagger UI offers "Authorize" and clients generated from
 * the document send the header. Which role each path needs is in {@link AccessRules}, not here.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class OpenApiSecurity implements OASFilter {

    static final String SCHEME = "lifelineToken";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        components.addSecurityScheme(SCHEME, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("llt_<id>_<secret>")
                .description("A Lifeline API token. The roles each path needs are listed in docs/api.md."));
        openAPI.addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(SCHEME));
    }
}
