package io.lifeline.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.domain.support.WireEnum;
import io.lifeline.platform.Json;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.info.Info;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.RequestBody;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * The conventions every operation of the OpenAPI document follows, applied here once so that an endpoint added
 * later follows them without annotations of its own (OpenApiLintTest runs Redocly's recommended rules on it):
 *
 * <ul>
 *   <li>an {@code operationId}, where the operation has none, made from its method and path
 *   ({@code GET /api/v1/jobs/{name}} → {@code getJobsByName}): stable while the path is, unique because the
 *   (method, path) pairs are;</li>
 *   <li>its error answers as {@code application/problem+json} with the one {@link Problem} schema: a 4xx or 5xx
 *   answer it declares without content gets that content, and an operation without any gets {@code 4XX} and
 *   {@code 5XX} (every route can refuse a caller and can meet an unreachable store);</li>
 *   <li>a request example, for the main requests, from {@code openapi/examples/<operationId>.json};</li>
 *   <li>enumerations as the wire names the answers carry ({@code running}, see {@link WireNames}), not the Java
 *   constants the scanner lists ({@code RUNNING});</li>
 *   <li>a server, a licence and a contact when configuration gave none
 *   ({@code quarkus.smallrye-openapi.servers}, {@code quarkus.smallrye-openapi.info-license-name}, ...).</li>
 * </ul>
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class OpenApiConventions implements OASFilter {

    static final String PROBLEM_SCHEMA = "Problem";
    private static final String PROBLEM_REF = "#/components/schemas/" + PROBLEM_SCHEMA;
    private static final String EXAMPLES = "openapi/examples/";
    private static final ObjectMapper JSON = Json.mapper();

    /** A Java constant as the scanner lists it: upper case, digits and {@code _}. */
    private static final java.util.regex.Pattern CONSTANT = java.util.regex.Pattern.compile("[A-Z][A-Z0-9_]*");

    /**
     * An enumeration of Java constants becomes the wire names answers carry, by the default rule of {@link WireEnum}:
     * a schema does not say which enum it came from. The one enum with names of its own, the reliability table's
     * {@code GroupBy} ({@code instanceType}), is listed by the rule (WireEnumTest keeps it the only one).
     */
    @Override
    public Schema filterSchema(Schema schema) {
        List<Object> values = schema.getEnumeration();
        if (values != null
                && !values.isEmpty()
                && values.stream()
                        .allMatch(v ->
                                v instanceof String s && CONSTANT.matcher(s).matches())) {
            schema.setEnumeration(wireNames(values));
        }
        return schema;
    }

    /** Enumerated Java constants as the answers write them ({@code NOTICE_RECEIVED} → {@code notice-received}). */
    static List<Object> wireNames(List<Object> constants) {
        return constants.stream()
                .map(v -> (Object) WireEnum.fromConstant((String) v))
                .toList();
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        if (components.getSchemas() == null || !components.getSchemas().containsKey(PROBLEM_SCHEMA)) {
            components.addSchema(PROBLEM_SCHEMA, problemSchema());
        }
        describe(openAPI);
        Set<String> ids = new HashSet<>();
        Map<String, PathItem> paths = openAPI.getPaths() == null
                ? Map.of()
                : new TreeMap<>(openAPI.getPaths().getPathItems());
        paths.forEach((path, item) -> item.getOperations().forEach((method, op) -> {
            if (op.getOperationId() != null) {
                ids.add(op.getOperationId());
            }
        }));
        paths.forEach((path, item) -> new TreeMap<>(item.getOperations()).forEach((method, op) -> {
            if (op.getOperationId() == null) {
                op.setOperationId(unique(operationId(method.name(), path), ids));
            }
            problems(op);
            example(op);
        }));
    }

    /** {@code GET}, {@code /api/v1/jobs/{name}/incidents} → {@code getJobsByNameIncidents}. */
    static String operationId(String method, String path) {
        StringBuilder id = new StringBuilder(method.toLowerCase(Locale.ROOT));
        String rest = path.startsWith("/api/v1/") ? path.substring("/api/v1".length()) : path;
        for (String segment : rest.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            boolean parameter = segment.startsWith("{");
            if (parameter) {
                id.append("By");
            }
            for (String word :
                    segment.replaceAll("[{}]", "").replaceAll(":.*", "").split("[^A-Za-z0-9]+")) {
                if (!word.isEmpty()) {
                    id.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
                }
            }
        }
        return id.toString();
    }

    private static String unique(String id, Set<String> taken) {
        String candidate = id;
        for (int n = 2; !taken.add(candidate); n++) {
            candidate = id + n;
        }
        return candidate;
    }

    private static void problems(Operation op) {
        APIResponses responses = op.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            op.setResponses(responses);
        }
        boolean client = false;
        boolean server = false;
        for (Map.Entry<String, APIResponse> e : responses.getAPIResponses().entrySet()) {
            String code = e.getKey();
            boolean error = code.startsWith("4") || code.startsWith("5") || "default".equals(code);
            client |= code.startsWith("4");
            server |= code.startsWith("5");
            APIResponse r = e.getValue();
            if (error
                    && r.getRef() == null
                    && (r.getContent() == null || r.getContent().getMediaTypes().isEmpty())) {
                r.setContent(problemContent());
            }
        }
        if (!client) {
            responses.addAPIResponse(
                    "4XX",
                    OASFactory.createAPIResponse()
                            .content(problemContent())
                            .description(
                                    "Refused: bad input, no or not enough of a token, or nothing there; the problem document says why"));
        }
        if (!server) {
            responses.addAPIResponse(
                    "5XX",
                    OASFactory.createAPIResponse()
                            .content(problemContent())
                            .description(
                                    "Lifeline could not answer, for example 503 while its store is unreachable (retry after "
                                            + "the Retry-After header's seconds)"));
        }
    }

    private static Content problemContent() {
        return OASFactory.createContent()
                .addMediaType(
                        Problem.MEDIA_TYPE,
                        OASFactory.createMediaType()
                                .schema(OASFactory.createSchema().ref(PROBLEM_REF)));
    }

    private static Schema problemSchema() {
        return OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT)
                .description("An RFC 9457 problem document, the body of every error answer")
                .addProperty(
                        "type",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.STRING)
                                .format("uri-reference")
                                .description("Names the kind of problem, e.g. /problems/invalid-event"))
                .addProperty(
                        "title",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.STRING)
                                .description("Short summary of the kind"))
                .addProperty(
                        "status",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.INTEGER)
                                .format("int32")
                                .description("The HTTP status"))
                .addProperty(
                        "detail",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.STRING)
                                .description("What went wrong this time"))
                .addProperty(
                        "errors",
                        OASFactory.createSchema()
                                .addType(Schema.SchemaType.ARRAY)
                                .items(OASFactory.createSchema().addType(Schema.SchemaType.OBJECT))
                                .description(
                                        "Per-item errors: for a batch of events, the index, id and reason of each one "
                                                + "rejected"))
                .addRequired("title")
                .addRequired("status");
    }

    private static void example(Operation op) {
        RequestBody body = op.getRequestBody();
        if (body == null || body.getContent() == null) {
            return;
        }
        body.getContent().getMediaTypes().forEach((name, type) -> {
            String subtype = name.substring(name.indexOf('/') + 1);
            String example = resource(EXAMPLES + op.getOperationId() + "." + subtype + ".json");
            if (example == null && subtype.endsWith("json")) {
                example = resource(EXAMPLES + op.getOperationId() + ".json");
            }
            if (example == null
                    || type.getExample() != null
                    || type.getExamples() != null && !type.getExamples().isEmpty()) {
                return;
            }
            try {
                type.setExample(JSON.readValue(example, Object.class));
            } catch (IOException e) {
                throw new UncheckedIOException("openapi example of " + op.getOperationId() + " is not JSON", e);
            }
            Schema schema = type.getSchema();
            if (schema != null && "binary".equals(schema.getFormat())) {
                // The resource reads the raw body itself; its JSON shape is what the example shows.
                type.setSchema(OASFactory.createSchema().description("JSON; see the example and docs/api.md"));
            }
        });
    }

    private static String resource(String name) {
        try (InputStream in = OpenApiConventions.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void describe(OpenAPI openAPI) {
        if (openAPI.getServers() == null || openAPI.getServers().isEmpty()) {
            // Relative: the Lifeline that serves the document (a client generated from it sets its own base URI).
            openAPI.addServer(OASFactory.createServer().url("/").description("This Lifeline"));
        }
        Info info = openAPI.getInfo();
        if (info == null) {
            info = OASFactory.createInfo().title("Lifeline API").version("1");
            openAPI.setInfo(info);
        }
        if (info.getDescription() == null) {
            info.setDescription("Reads and control of Lifeline, the control plane that keeps GPU training jobs' "
                    + "work safe across interruptions. Errors are RFC 9457 problem documents. See docs/api.md.");
        }
        if (info.getLicense() == null) {
            info.setLicense(OASFactory.createLicense().name("Proprietary").identifier("LicenseRef-Lifeline"));
        }
        if (info.getContact() == null) {
            info.setContact(OASFactory.createContact().name("Lifeline maintainers"));
        }
    }
}
