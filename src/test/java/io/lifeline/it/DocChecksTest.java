package io.lifeline.it;

import static io.lifeline.it.DocChecks.has;
import static io.lifeline.it.DocChecks.is;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.testing.MarkdownDoc;
import io.lifeline.testing.MarkdownDoc.Command;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A documented command without its check, or a check without its command, fails DocumentedCommandsIT. */
class DocChecksTest {

    private static final DocChecks.Check NOTHING = c -> {};

    private static List<Command> commands(String block) {
        return MarkdownDoc.parse(Path.of("doc.md"), "## S\n```sh\n" + block + "```\n")
                .blocks("sh")
                .get(0)
                .commands();
    }

    @Test
    void everyCommandHasItsCheckInTheDocumentsOrder() {
        List<Command> commands = commands("./tool get jobs\n./run   # not in a test\ncurl -d 'x' http://h/a?b=1\n");
        Map<Command, DocChecks.Expect> plan = DocChecks.plan(
                commands, List.of(has("/a?b=1", NOTHING), is("./tool get jobs", NOTHING)), Map.of("./run", "why"));
        assertThat(plan.keySet())
                .extracting(Command::plain)
                .containsExactly("./tool get jobs", "curl -d 'x' http://h/a?b=1");
        assertThat(plan.values())
                .extracting(DocChecks.Expect::name)
                .containsExactly("./tool get jobs", "... /a?b=1 ...");
    }

    @Test
    void aCommandTheDocumentGainedFails() {
        assertThatThrownBy(() -> DocChecks.plan(
                        commands("./tool get jobs\n./tool get nodes\n"),
                        List.of(is("./tool get jobs", NOTHING)),
                        Map.of()))
                .hasMessageContaining("doc.md:4: ./tool get nodes: no check runs it, and it is not listed as not run");
    }

    @Test
    void aChangedCommandFailsBothWays() {
        assertThatThrownBy(() -> DocChecks.plan(
                        commands("./tool get jobs --all\n"), List.of(is("./tool get jobs", NOTHING)), Map.of()))
                .hasMessageContaining("./tool get jobs --all: no check runs it")
                .hasMessageContaining("a check of a command the document no longer shows: ./tool get jobs");
    }

    @Test
    void aCommandCheckedTwiceOrAReasonWithoutItsCommandFails() {
        assertThatThrownBy(() -> DocChecks.plan(
                        commands("./tool get jobs\n"),
                        List.of(is("./tool get jobs", NOTHING), has("get", NOTHING)),
                        Map.of("./gone", "why")))
                .hasMessageContaining("./tool get jobs: 2 checks match it")
                .hasMessageContaining("listed as not run, but the document no longer shows it: ./gone");
    }
}
