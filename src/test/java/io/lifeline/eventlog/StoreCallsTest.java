package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.PersistenceException;
import jakarta.transaction.RollbackException;
import org.junit.jupiter.api.Test;

/** Which failures of a repository call are the database's (HTTP 503) and which pass through as they are. */
class StoreCallsTest {

    @Test
    void aFailedStatementIsTheStoreBeingUnavailable() {
        PersistenceException failed = new PersistenceException("connection refused");
        assertThatThrownBy(() -> StoreCalls.call("the test store", () -> {
                    throw failed;
                }))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("the test store is unavailable; retry later")
                .hasCause(failed);
    }

    @Test
    void aFailedCommitIsTooWhateverWrapsIt() {
        RuntimeException wrapped = new RuntimeException(new RollbackException("commit failed"));
        assertThatThrownBy(() -> StoreCalls.run("the test store", () -> {
                    throw wrapped;
                }))
                .isInstanceOf(StoreUnavailableException.class)
                .hasCause(wrapped);
    }

    @Test
    void anythingElsePassesUnchanged() {
        IllegalStateException refused = new IllegalStateException("too many");
        assertThatThrownBy(() -> StoreCalls.call("the test store", () -> {
                    throw refused;
                }))
                .isSameAs(refused);
        assertThat(StoreCalls.call("the test store", () -> 42)).isEqualTo(42);
    }
}
