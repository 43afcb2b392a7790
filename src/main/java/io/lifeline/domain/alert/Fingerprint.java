package io.lifeline.domain.alert;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * An alert's identity: 64-bit FNV-1a over its sorted labels (names and values separated by bytes that cannot occur
 * in either), as 16 hex digits. Like Alertmanager's fingerprint, the same labels always give the same value, so
 * the same condition found again is the same alert (dedupe), across evaluations and restarts.
 */
public final class Fingerprint {

    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private Fingerprint() {}

    public static String of(Map<String, String> labels) {
        long h = OFFSET;
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            h = add(h, e.getKey());
            h = (h ^ 0xff) * PRIME;
            h = add(h, e.getValue());
            h = (h ^ 0xfe) * PRIME;
        }
        return String.format("%016x", h);
    }

    private static long add(long h, String s) {
        long x = h;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            x = (x ^ (b & 0xff)) * PRIME;
        }
        return x;
    }
}
