package io.lifeline.domain.support;

import java.util.Locale;
import java.util.Optional;

/**
 * An enum whose values travel by their wire name, in lower case ({@code running}, {@code spot-reclaim}), rather than
 * by their Java constant ({@code RUNNING}): every API answer writes {@link #wire()}, and requests take either spelling
 * ({@link #parse}). The wire name defaults to the constant in lower case with {@code -} for {@code _}; a value that
 * already has a name on another of Lifeline's wires (an event field, an agent command) keeps that one, so each value
 * is spelled the same wherever it appears.
 */
public interface WireEnum {

    /** This value's name on the wire. */
    default String wire() {
        return fromConstant(((Enum<?>) this).name());
    }

    /** The default wire name of a Java constant: {@code NOTICE_RECEIVED} → {@code notice-received}. */
    static String fromConstant(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The value of {@code type} that {@code s} names: its wire name or its Java constant, in any case, with {@code -}
     * and {@code _} alike (so a client that sends what earlier releases wrote is still understood); empty when none
     * does, or {@code s} is null.
     */
    static <E extends Enum<E>> Optional<E> parse(Class<E> type, String s) {
        if (s == null) {
            return Optional.empty();
        }
        String want = normal(s);
        for (E e : type.getEnumConstants()) {
            if (normal(e.name()).equals(want)
                    || e instanceof WireEnum w && normal(w.wire()).equals(want)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** The name {@code e} has on the wire: its {@link #wire()}, or for an enum not (yet) declared one, the default. */
    static String wireOf(Enum<?> e) {
        return e instanceof WireEnum w ? w.wire() : fromConstant(e.name());
    }

    private static String normal(String s) {
        return s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
