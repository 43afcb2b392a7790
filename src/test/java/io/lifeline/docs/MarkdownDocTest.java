package io.lifeline.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.testing.MarkdownDoc;
import io.lifeline.testing.MarkdownDoc.Command;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reader of the documents' code blocks that the tests run: blocks, their sections, and shell commands. */
class MarkdownDocTest {

    private static final Path FILE = Path.of("doc.md");

    @Test
    void blocksKnowTheirSectionLineAndLanguage() {
        MarkdownDoc doc = MarkdownDoc.parse(FILE, """
                # Title
                ```sh
                top
                ```
                ## First
                text
                ```json
                {"a": 1}
                ```
                ### Sub
                ````
                ```
                nested fence
                ```
                ````
                ## Second
                ```yaml
                k: v
                ```
                """);
        assertThat(doc.blocks())
                .extracting(MarkdownDoc.Block::section, MarkdownDoc.Block::line, MarkdownDoc.Block::lang)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("", 2, "sh"),
                        org.assertj.core.groups.Tuple.tuple("First", 7, "json"),
                        org.assertj.core.groups.Tuple.tuple("First", 11, ""),
                        org.assertj.core.groups.Tuple.tuple("Second", 17, "yaml"));
        assertThat(doc.blocks("json").get(0).text()).isEqualTo("{\"a\": 1}\n");
        assertThat(doc.blocks("").get(0).text()).isEqualTo("```\nnested fence\n```\n");
        assertThat(doc.section("Second")).hasSize(1);
        assertThatThrownBy(() -> doc.section("Third")).hasMessageContaining("no code block under '## Third'");
    }

    @Test
    void shellCommandsJoinContinuationsAndOpenQuotesAndDropCommentLines() {
        MarkdownDoc doc = MarkdownDoc.parse(FILE, """
                ## S
                ```sh
                # a comment line
                TOKEN=$(cat .lifeline/admin-token)

                curl -s -H "Authorization: Bearer $TOKEN" \\
                  http://localhost:8080/x -d '{"a":1,
                       "b":"x # not a comment"}'
                ./tool install ~/bin     # then: tool ...
                echo "a # b" # c
                # Output: 42
                ```
                """);
        List<Command> commands = doc.blocks("sh").get(0).commands();
        assertThat(commands).extracting(Command::line).containsExactly(4, 6, 9, 10);
        assertThat(commands.get(0).text()).isEqualTo("TOKEN=$(cat .lifeline/admin-token)");
        assertThat(commands.get(1).text())
                .isEqualTo("curl -s -H \"Authorization: Bearer $TOKEN\" \\\n"
                        + "  http://localhost:8080/x -d '{\"a\":1,\n       \"b\":\"x # not a comment\"}'");
        assertThat(commands.get(1).plain())
                .isEqualTo("curl -s -H \"Authorization: Bearer $TOKEN\" "
                        + "http://localhost:8080/x -d '{\"a\":1,\n       \"b\":\"x # not a comment\"}'");
        assertThat(commands.get(2).plain()).isEqualTo("./tool install ~/bin");
        assertThat(commands.get(2).text()).endsWith("# then: tool ...");
        assertThat(commands.get(3).plain()).isEqualTo("echo \"a # b\"");
        assertThat(commands.get(3).where()).isEqualTo("doc.md:10");
    }

    @Test
    void aCommandThatNeverEndsIsAnError() {
        MarkdownDoc doc = MarkdownDoc.parse(FILE, "```sh\necho 'open\n```\n");
        assertThatThrownBy(() -> doc.blocks("sh").get(0).commands())
                .hasMessageContaining("doc.md:2")
                .hasMessageContaining("never ends");
    }

    @Test
    void anUnclosedBlockIsAnError() {
        assertThatThrownBy(() -> MarkdownDoc.parse(FILE, "text\n```sh\necho\n"))
                .hasMessageContaining("doc.md:2")
                .hasMessageContaining("never closed");
    }
}
