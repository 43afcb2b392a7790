package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Naming jobs: {@code namespace/name}, or just {@code name} when the namespace is known or the name is unique. */
final class Jobs {

    private Jobs() {}

    /**
     * The job's API name. {@code ns/name} is taken as it is; a bare name gets {@code namespace} when one is set,
     * else the one job of that name (asking the server); none or several of that name is an error.
     */
    static String resolve(Api api, String ref, String namespace) {
        if (ref == null || ref.isBlank()) {
            throw CliException.usage("a job is needed, as namespace/name");
        }
        if (ref.startsWith("job/")) {
            ref = ref.substring(4);
        }
        if (ref.contains("/")) {
            return ref;
        }
        if (namespace != null) {
            return namespace + "/" + ref;
        }
        List<String> matches = new ArrayList<>();
        for (JsonNode j : all(api, null)) {
            String name = Json.text(j, "name");
            if (name != null && name.substring(name.indexOf('/') + 1).equals(ref)) {
                matches.add(name);
            }
        }
        if (matches.isEmpty()) {
            throw CliException.notFound("no job named '" + ref + "' in any namespace");
        }
        if (matches.size() > 1) {
            throw CliException.usage("several jobs are named '" + ref + "': " + String.join(", ", matches)
                    + "; give namespace/name or --namespace");
        }
        return matches.get(0);
    }

    /** Every job (all pages), optionally of one namespace. */
    static List<JsonNode> all(Api api, String namespace) {
        return all(api, namespace, null, null);
    }

    static List<JsonNode> all(Api api, String namespace, String state, Boolean breached) {
        List<JsonNode> out = new ArrayList<>();
        int offset = 0;
        while (true) {
            JsonNode page = api.get(Api.query(
                    Api.path("jobs"),
                    Api.params(
                            "namespace",
                            namespace,
                            "state",
                            state,
                            "breached",
                            breached,
                            "limit",
                            1000,
                            "offset",
                            offset)));
            List<JsonNode> items = Base.items(page, "items");
            out.addAll(items);
            int total = page.path("total").asInt(out.size());
            if (items.isEmpty() || out.size() >= total) {
                return out;
            }
            offset += items.size();
        }
    }

    /** {@code /api/v1/jobs/{ns}/{name}} plus more segments. */
    static String path(String job, String... more) {
        int slash = job.indexOf('/');
        String[] all = new String[3 + more.length];
        all[0] = "jobs";
        all[1] = job.substring(0, slash);
        all[2] = job.substring(slash + 1);
        System.arraycopy(more, 0, all, 3, more.length);
        return Api.path(all);
    }
}
