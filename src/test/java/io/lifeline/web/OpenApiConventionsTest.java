package io.lifeline.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.junit.jupiter.api.Test;

/** The document-wide conventions: operation ids from method and path, error answers as problem documents. */
class OpenApiConventionsTest {

    @Test
    void operationIdsComeFromMethodAndPath() {
        assertThat(OpenApiConventions.operationId("GET", "/api/v1/jobs")).isEqualTo("getJobs");
        assertThat(OpenApiConventions.operationId("GET", "/api/v1/jobs/{name}/incidents"))
                .isEqualTo("getJobsByNameIncidents");
        assertThat(OpenApiConventions.operationId("POST", "/api/v1/connectors/gcp/{instanceId}/{what}"))
                .isEqualTo("postConnectorsGcpByInstanceIdByWhat");
        assertThat(OpenApiConventions.operationId("GET", "/auth/sso/login")).isEqualTo("getAuthSsoLogin");
        assertThat(OpenApiConventions.operationId("DELETE", "/api/v1/silences/{id}"))
                .isEqualTo("deleteSilencesById");
    }

    @Test
    void keepsGivenIdsMakesCollisionsUniqueAndDocumentsErrorsAsProblems() {
        Operation named = OASFactory.createOperation().operationId("getJobs");
        Operation collides = OASFactory.createOperation();
        Operation declared400 = OASFactory.createOperation()
                .responses(OASFactory.createAPIResponses()
                        .addAPIResponse("400", OASFactory.createAPIResponse().description("bad")));
        OpenAPI doc = OASFactory.createOpenAPI()
                .paths(OASFactory.createPaths()
                        .addPathItem(
                                "/api/v1/jobs-list", OASFactory.createPathItem().GET(named))
                        .addPathItem("/api/v1/jobs", OASFactory.createPathItem().GET(collides))
                        .addPathItem(
                                "/api/v1/events", OASFactory.createPathItem().POST(declared400)));
        new OpenApiConventions().filterOpenAPI(doc);
        assertThat(named.getOperationId()).isEqualTo("getJobs");
        assertThat(collides.getOperationId()).isEqualTo("getJobs2");
        assertThat(declared400.getOperationId()).isEqualTo("postEvents");
        assertThat(declared400
                        .getResponses()
                        .getAPIResponse("400")
                        .getContent()
                        .getMediaType(Problem.MEDIA_TYPE)
                        .getSchema()
                        .getRef())
                .isEqualTo("#/components/schemas/Problem");
        assertThat(declared400.getResponses().getAPIResponses())
                .containsKeys("400", "5XX")
                .doesNotContainKey("4XX");
        assertThat(collides.getResponses().getAPIResponses()).containsKeys("4XX", "5XX");
        assertThat(doc.getComponents().getSchemas()).containsKey(OpenApiConventions.PROBLEM_SCHEMA);
        assertThat(doc.getServers()).isNotEmpty();
        assertThat(doc.getInfo().getLicense()).isNotNull();
    }

    @Test
    void enumerationsListTheWireNamesAnswersCarry() {
        org.eclipse.microprofile.openapi.models.media.Schema state =
                OASFactory.createSchema().enumeration(List.of("PENDING", "NOTICE_RECEIVED", "RANK_0"));
        new OpenApiConventions().filterSchema(state);
        assertThat(state.getEnumeration()).containsExactly("pending", "notice-received", "rank-0");
        org.eclipse.microprofile.openapi.models.media.Schema wire =
                OASFactory.createSchema().enumeration(List.of("checkpoint-now", "drain"));
        new OpenApiConventions().filterSchema(wire);
        assertThat(wire.getEnumeration()).as("already wire names").containsExactly("checkpoint-now", "drain");
    }
}
