package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

    private static Table jobs() {
        return new Table()
                .flexible("name")
                .column("state")
                .number("gpus")
                .flexible("incident")
                .row("research/llama3-70b-pretrain", "recovering", "128", "research/llama3-70b-pretrain#4")
                .row("vision/vit", "running", "8", "-");
    }

    @Test
    void columnsAlignedThreeSpacesApartNumbersToTheRight() {
        List<String> lines = jobs().render(0, null);
        assertThat(lines)
                .containsExactly(
                        "NAME                           STATE        GPUS   INCIDENT",
                        "research/llama3-70b-pretrain   recovering    128   research/llama3-70b-pretrain#4",
                        "vision/vit                     running         8   -");
    }

    @Test
    void fitsTheTerminalByCuttingFlexibleColumnsRightmostFirst() {
        List<String> lines = jobs().render(60, null);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(lines.get(1))
                .startsWith("research/llama3-70b-pretrain ")
                .contains("recovering")
                .contains("128")
                .endsWith("research\u2026");
        List<String> narrower = jobs().render(45, null);
        assertThat(narrower).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(45));
        assertThat(narrower.get(1)).contains("\u2026   recovering");
    }

    @Test
    void controlCharactersFromEventsCannotMoveTheCursorOrRecolourTheTerminal() {
        List<String> lines = new Table()
                .column("reason")
                .row("out of disk\r\u001b[2K\u001b[31mall clear\nok\tx")
                .render(0, null);
        assertThat(lines.get(1)).isEqualTo("out of disk??[2K?[31mall clear ok x");
    }

    @Test
    void neverCutsBelowAFloorEvenWhenTheTerminalIsTiny() {
        List<String> lines = jobs().render(10, null);
        assertThat(lines.get(1)).startsWith("researc\u2026").contains("recovering");
    }

    @Test
    void stylesDoNotCountAsWidth() {
        Table t = new Table()
                .column("state", false, false, s -> "\u001b[32m" + s + "\u001b[0m")
                .column("x")
                .row("ok", "1")
                .row("running", "2");
        List<String> lines = t.render(0, h -> "*" + h + "*");
        assertThat(lines.get(0)).isEqualTo("*STATE*     *X*");
        assertThat(lines.get(1)).isEqualTo("\u001b[32mok\u001b[0m        1");
        assertThat(lines.get(2)).isEqualTo("\u001b[32mrunning\u001b[0m   2");
    }

    @Test
    void missingAndMultiLineValuesStayOnOneLine() {
        List<String> lines = new Table()
                .column("a")
                .column("b")
                .row("x\ny")
                .row((String) null)
                .render(0, null);
        assertThat(lines).containsExactly("A     B", "x y", "");
    }

    @Test
    void cutKeepsTheWidth() {
        assertThat(Table.cut("abcdef", 4)).isEqualTo("abc\u2026");
        assertThat(Table.cut("abc", 4)).isEqualTo("abc");
    }
}
