package io.lifeline.connector.inbound.exposition;

/**
 * A small direct-mapped cache that turns a run of characters into a String, reusing the instance it made the
 * last time it saw the same characters. An exporter repeats the same names, UUIDs and host names on every line
 * and every scrape, so this saves most of the parser's String allocations. A collision simply replaces the
 * slot, so memory is bounded by the table size. Not thread-safe.
 */
final class StringCache {

    /** Long strings are rare and rarely repeated: not worth a slot. */
    private static final int MAX_CACHED_LENGTH = 96;

    private final String[] table;
    private final int mask;

    StringCache(int sizePowerOfTwo) {
        if (Integer.bitCount(sizePowerOfTwo) != 1) {
            throw new IllegalArgumentException("size must be a power of two, got " + sizePowerOfTwo);
        }
        this.table = new String[sizePowerOfTwo];
        this.mask = sizePowerOfTwo - 1;
    }

    String get(char[] buf, int off, int len) {
        if (len == 0) {
            return "";
        }
        if (len > MAX_CACHED_LENGTH) {
            return new String(buf, off, len);
        }
        int h = 0;
        for (int i = off, end = off + len; i < end; i++) {
            h = 31 * h + buf[i];
        }
        int slot = (h ^ (h >>> 15)) & mask;
        String s = table[slot];
        if (s != null && s.length() == len && sameChars(s, buf, off, len)) {
            return s;
        }
        s = new String(buf, off, len);
        table[slot] = s;
        return s;
    }

    private static boolean sameChars(String s, char[] buf, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != buf[off + i]) {
                return false;
            }
        }
        return true;
    }
}
