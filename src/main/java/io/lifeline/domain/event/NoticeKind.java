package io.lifeline.domain.event;

import io.lifeline.domain.support.WireEnum;
import java.util.Locale;

/** Why a node is going away: the kind of an interruption notice. */
public enum NoticeKind implements WireEnum {
    SPOT_RECLAIM,
    REBALANCE,
    MAINTENANCE,
    PREEMPT;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the wire form; {@code null} when unknown. */
    public static NoticeKind fromWireName(String s) {
        if (s == null) {
            return null;
        }
        for (NoticeKind k : values()) {
            if (k.wireName().equals(s.trim().toLowerCase(Locale.ROOT).replace('-', '_'))) {
                return k;
            }
        }
        return null;
    }
}
