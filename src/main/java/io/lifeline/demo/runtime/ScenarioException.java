package io.lifeline.demo.runtime;

import java.util.List;

/** A scenario file that cannot be used, with every problem found, each naming its field and why. */
public class ScenarioException extends RuntimeException {

    private final String source;
    private final List<String> problems;

    public ScenarioException(String source, List<String> problems) {
        super("demo scenario " + source + " is invalid:\n  - " + String.join("\n  - ", problems), null, false, false);
        this.source = source;
        this.problems = List.copyOf(problems);
    }

    /** Where the scenario came from (a file path or the built-in resource). */
    public String source() {
        return source;
    }

    /** Each problem as {@code field: why}, for example {@code jobs[1].maxNodes: must be >= minNodes (4), got 2}. */
    public List<String> problems() {
        return problems;
    }
}
