package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every command has: the root's settings, the API, the output. */
abstract class Base implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    Main cli() {
        return (Main) spec.root().userObject();
    }

    Api api() {
        return cli().api();
    }

    Out out() {
        return cli().out();
    }

    Terminal term() {
        return cli().term();
    }

    @Override
    public final Integer call() {
        out();
        return run();
    }

    abstract int run();

    /** A job as the API names it ({@code namespace/name}): see {@link Jobs#resolve}. */
    String job(String ref) {
        return Jobs.resolve(
                api(),
                ref,
                cli().namespace != null ? cli().namespace : cli().settings().namespace());
    }

    static List<JsonNode> items(JsonNode page, String field) {
        List<JsonNode> l = new ArrayList<>();
        JsonNode a = page == null ? null : page.get(field);
        if (a != null && a.isArray()) {
            a.forEach(l::add);
        }
        return l;
    }
}
