package io.lifeline.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TranslatorStatsTest {

    private static final Event READY =
            new Event("1", "test", EventType.NODE_READY, "n1", Instant.EPOCH, new NodeData.Ready());

    @Test
    void countsInputsEventsAndRejectionsByReason() {
        TranslatorStats stats = new TranslatorStats("test");

        stats.record(Translation.of(List.of(READY, READY)));
        stats.record(Translation.empty());
        stats.record(Translation.rejected("unknown_instance", "i-1"));
        stats.record(new Translation(List.of(READY), List.of(new Translation.Rejection("unknown_instance", "i-2"))));

        assertThat(stats.snapshot())
                .isEqualTo(new TranslatorStats.Snapshot("test", 4, 3, 2, 3, java.util.Map.of("unknown_instance", 2L)));
    }

    @Test
    void reasonCodesAreBoundedAndOverflowIntoOther() {
        TranslatorStats stats = new TranslatorStats("test");

        for (int i = 0; i < TranslatorStats.MAX_REASONS + 10; i++) {
            stats.record(Translation.rejected("reason_" + i, "x"));
        }

        assertThat(stats.rejectionsByReason())
                .hasSize(TranslatorStats.MAX_REASONS + 1)
                .containsEntry(TranslatorStats.OTHER, 10L);
        assertThat(stats.rejected()).isEqualTo(TranslatorStats.MAX_REASONS + 10);
    }
}
