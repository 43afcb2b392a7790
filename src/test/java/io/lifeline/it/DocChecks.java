package io.lifeline.it;

import io.lifeline.testing.MarkdownDoc.Command;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which check runs which command of a document. Every command has exactly one check, or a reason it is not run;
 * every check and every reason has its command. So a command a document gains fails the test until it is checked,
 * and a check of a command the document lost fails it too.
 */
final class DocChecks {

    /** A check of one documented command. */
    @FunctionalInterface
    interface Check {
        void run(Command c) throws Exception;
    }

    /** Which commands a check is for, and the check. */
    record Expect(String name, Predicate<String> matches, Check check) {}

    private DocChecks() {}

    /** For the command {@code command} exactly (its text without a trailing comment, continuations joined). */
    static Expect is(String command, Check check) {
        return new Expect(command, command::equals, check);
    }

    /** For the command that contains {@code part}. */
    static Expect has(String part, Check check) {
        return new Expect("... " + part + " ...", p -> p.contains(part), check);
    }

    /**
     * The check of each command, in the document's order; {@code notRun} maps the commands deliberately not run to
     * the reason. Fails, naming every command and check out of place, unless both sides match up.
     */
    static Map<Command, Expect> plan(List<Command> commands, List<Expect> expects, Map<String, String> notRun) {
        Map<Command, Expect> plan = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<String> used = new ArrayList<>();
        for (Command c : commands) {
            if (notRun.containsKey(c.plain())) {
                used.add(c.plain());
                continue;
            }
            List<Expect> matching =
                    expects.stream().filter(e -> e.matches().test(c.plain())).toList();
            if (matching.size() == 1) {
                plan.put(c, matching.get(0));
                used.add(matching.get(0).name());
            } else {
                problems.add(c.where() + ": " + c.plain()
                        + (matching.isEmpty()
                                ? ": no check runs it, and it is not listed as not run"
                                : ": " + matching.size() + " checks match it"));
            }
        }
        expects.stream()
                .map(Expect::name)
                .filter(n -> !used.contains(n))
                .forEach(n -> problems.add("a check of a command the document no longer shows: " + n));
        notRun.keySet().stream()
                .filter(n -> !used.contains(n))
                .forEach(n -> problems.add("listed as not run, but the document no longer shows it: " + n));
        if (!problems.isEmpty()) {
            throw new AssertionError(
                    "the documented commands and their checks do not match up:\n  " + String.join("\n  ", problems));
        }
        return plan;
    }
}
