package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputTest {

    private final StringWriter out = new StringWriter();

    private Out out(String format, Map<String, String> env) {
        Terminal t = new Terminal(
                env,
                java.io.InputStream.nullInputStream(),
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));
        return new Out(t, Out.parse(format), new Times(false, Instant.parse("2026-03-01T12:00:00Z")));
    }

    @Test
    void formats() {
        assertThat(Out.parse(null)).isEqualTo(Out.Format.TABLE);
        assertThat(Out.parse("JSON")).isEqualTo(Out.Format.JSON);
        assertThat(Out.parse("yaml")).isEqualTo(Out.Format.YAML);
        assertThatThrownBy(() -> Out.parse("xml"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("json, yaml, wide, name");
    }

    @Test
    void listsAsOneDocumentThatParsesBack() throws Exception {
        JsonNode job = Json.parse("{\"name\":\"vision/vit\",\"worldSize\":64}");
        out("json", Map.of()).document(Out.list(List.of(job)));
        assertThat(Json.parse(out.toString()).at("/items/0/worldSize").asInt()).isEqualTo(64);
        StringWriter yaml = new StringWriter();
        Terminal t = new Terminal(
                Map.of(),
                java.io.InputStream.nullInputStream(),
                new PrintWriter(yaml, true),
                new PrintWriter(new StringWriter()));
        new Out(t, Out.Format.YAML, new Times(false, Instant.now())).document(Out.list(List.of(job)));
        assertThat(yaml.toString()).isEqualTo("items:\n- name: vision/vit\n  worldSize: 64\n");
        assertThat(Json.yaml().readTree(yaml.toString()).at("/items/0/name").asText())
                .isEqualTo("vision/vit");
    }

    @Test
    void colourOnlyOnATerminalAndNeverWithNoColor() {
        Terminal pipe = new Terminal(
                Map.of("LIFELINECTL_TTY", "0"),
                java.io.InputStream.nullInputStream(),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        assertThat(pipe.colour()).isFalse();
        assertThat(pipe.red("x")).isEqualTo("x");
        assertThat(pipe.columns()).as("no width: nothing is cut in a pipe").isZero();
        Terminal tty = new Terminal(
                Map.of("LIFELINECTL_TTY", "1", "LIFELINECTL_COLUMNS", "97"),
                java.io.InputStream.nullInputStream(),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        assertThat(tty.colour()).isTrue();
        assertThat(tty.red("x")).isEqualTo("\u001b[31mx\u001b[0m");
        assertThat(tty.columns()).isEqualTo(97);
        Terminal noColour = new Terminal(
                Map.of("LIFELINECTL_TTY", "1", "NO_COLOR", "1"),
                java.io.InputStream.nullInputStream(),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        assertThat(noColour.colour()).isFalse();
        assertThat(noColour.columns()).as("a terminal of unknown width").isEqualTo(120);
    }

    @Test
    void statesAreColouredByMeaning() {
        Terminal tty = new Terminal(
                Map.of("LIFELINECTL_TTY", "1"),
                java.io.InputStream.nullInputStream(),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        Out o = new Out(tty, Out.Format.TABLE, new Times(false, Instant.now()));
        assertThat(o.state("running")).contains("[32m");
        assertThat(o.state("failed")).contains("[31m");
        assertThat(o.state("RECOVERING")).contains("[33m");
        assertThat(o.state("something-else")).isEqualTo("something-else");
    }

    @Test
    void exitCodesOfAnswers() {
        assertThat(Exit.ofStatus(400, true)).isEqualTo(Exit.FAILED);
        assertThat(Exit.ofStatus(400, false)).isEqualTo(Exit.USAGE);
        assertThat(Exit.ofStatus(401, false)).isEqualTo(Exit.NOT_ALLOWED);
        assertThat(Exit.ofStatus(403, true)).isEqualTo(Exit.NOT_ALLOWED);
        assertThat(Exit.ofStatus(404, false)).isEqualTo(Exit.NOT_FOUND);
        assertThat(Exit.ofStatus(409, true)).isEqualTo(Exit.FAILED);
        assertThat(Exit.ofStatus(429, true)).isEqualTo(Exit.FAILED);
        assertThat(Exit.ofStatus(503, false)).isEqualTo(Exit.UNREACHABLE);
        assertThat(ApiException.message(403, "Forbidden", "the viewer role may not POST this path; it needs operator"))
                .isEqualTo("Forbidden: the viewer role may not POST this path; it needs operator");
        assertThat(ApiException.message(500, null, null)).isEqualTo("HTTP 500");
        assertThat(ApiException.message(404, "Not Found", null)).isEqualTo("Not Found (HTTP 404)");
    }
}
