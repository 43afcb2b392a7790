package io.lifeline.eventlog;

import io.quarkus.narayana.jta.QuarkusTransactionException;
import jakarta.persistence.PersistenceException;
import java.util.function.Supplier;

/**
 * Calls a transactional repository method from outside its transaction, so that every failure of the database shows
 * as one {@link StoreUnavailableException} naming the store (HTTP 503 at the edge), as {@code eventlog.Jdbc} does
 * for SQL written by hand: a failed statement (Hibernate's {@link PersistenceException}) and a failed commit (the
 * transaction manager's {@code jakarta.transaction} exceptions, which reach the caller wrapped, or a
 * {@link QuarkusTransactionException} from a programmatic transaction) alike. The one such mapping for every store on
 * Hibernate ORM with Panache. Any other
 * exception, such as one the method throws on purpose, passes unchanged.
 */
public final class StoreCalls {

    private StoreCalls() {}

    /** The result of {@code call}, or {@link StoreUnavailableException} naming {@code what}. */
    public static <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            if (fromTheDatabase(e)) {
                throw new StoreUnavailableException(what, e);
            }
            throw e;
        }
    }

    /** Runs {@code call}, or throws {@link StoreUnavailableException} naming {@code what}. */
    public static void run(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }

    private static boolean fromTheDatabase(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PersistenceException
                    || t instanceof QuarkusTransactionException
                    || t.getClass().getName().startsWith("jakarta.transaction.")) {
                return true;
            }
        }
        return false;
    }
}
