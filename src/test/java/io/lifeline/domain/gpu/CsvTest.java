package io.lifeline.domain.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    @Test
    void readsQuotedFieldsWithCommasQuotesAndLineBreaks() {
        String text = "xid,mnemonic,description\r\n"
                + "13,\"A /\nB\",Graphics Engine Exception\r\n"
                + "45,X,\"Preemptive cleanup, due to \"\"previous\"\" errors\"\r\n";
        List<List<String>> rows = Csv.parse(text);
        assertThat(rows)
                .containsExactly(
                        List.of("xid", "mnemonic", "description"),
                        List.of("13", "A /\nB", "Graphics Engine Exception"),
                        List.of("45", "X", "Preemptive cleanup, due to \"previous\" errors"));
    }

    @Test
    void keepsEmptyFieldsAndReadsALastRecordWithoutLineEnd() {
        assertThat(Csv.parse("162,,RESET_GPU,FATAL\n\n1,a,,"))
                .containsExactly(List.of("162", "", "RESET_GPU", "FATAL"), List.of("1", "a", "", ""));
    }

    @Test
    void acceptsBareCarriageReturnLineEnds() {
        assertThat(Csv.parse("a,b\rc,d")).containsExactly(List.of("a", "b"), List.of("c", "d"));
    }

    @Test
    void rejectsAnUnterminatedQuote() {
        assertThatThrownBy(() -> Csv.parse("1,\"open\n2,x\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated");
    }
}
