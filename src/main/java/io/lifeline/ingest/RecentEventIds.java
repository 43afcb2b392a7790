package io.lifeline.ingest;

/**
 * A bounded memory of recently seen event identities (source, id), for deduplication at ingest.
 *
 * <p>Stores 64-bit hashes, not strings (8 bytes per id plus table slack), in lock-striped open-addressing
 * tables; when a stripe is full its oldest id is forgotten (FIFO). A forgotten lifecycle event that comes
 * back is still caught by the event log's unique key; a forgotten telemetry sample is harmless to apply twice.
 */
public final class RecentEventIds {

    private static final int STRIPES = 16;
    private final Stripe[] stripes = new Stripe[STRIPES];

    /** @param capacity ids remembered in total */
    public RecentEventIds(int capacity) {
        int perStripe = Math.max(16, capacity / STRIPES);
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(perStripe);
        }
    }

    /** Remembers the id; returns false when it was already known (a duplicate). */
    public boolean add(String source, String id) {
        long h = hash(source, id);
        return stripe(h).add(h);
    }

    /** Forgets an id (used when an accepted id could not be taken after all, so that a retry is not a duplicate). */
    public void remove(String source, String id) {
        long h = hash(source, id);
        stripe(h).remove(h);
    }

    public boolean contains(String source, String id) {
        long h = hash(source, id);
        return stripe(h).contains(h);
    }

    private Stripe stripe(long h) {
        return stripes[(int) (h >>> 60) & (STRIPES - 1)];
    }

    static long hash(String source, String id) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < source.length(); i++) {
            h = (h ^ source.charAt(i)) * 0x100000001B3L;
        }
        h = (h ^ 0xFFFF) * 0x100000001B3L;
        for (int i = 0; i < id.length(); i++) {
            h = (h ^ id.charAt(i)) * 0x100000001B3L;
        }
        // fmix64 from MurmurHash3: spreads the FNV state over all bits.
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }

    /** One stripe: linear probing with backward-shift deletion, and a ring of insertion order for eviction. */
    private static final class Stripe {
        private final long[] table;
        private final int mask;
        private final long[] ring;
        private int ringHead;
        private int size;

        Stripe(int capacity) {
            int tableSize = Integer.highestOneBit(capacity * 2 - 1) << 1;
            table = new long[tableSize];
            mask = tableSize - 1;
            ring = new long[capacity];
        }

        synchronized boolean add(long h) {
            if (indexOf(h) >= 0) {
                return false;
            }
            if (size == ring.length) {
                delete(ring[ringHead]);
            } else {
                size++;
            }
            ring[ringHead] = h;
            ringHead = (ringHead + 1) % ring.length;
            int i = (int) h & mask;
            while (table[i] != 0) {
                i = (i + 1) & mask;
            }
            table[i] = h;
            return true;
        }

        synchronized boolean contains(long h) {
            return indexOf(h) >= 0;
        }

        synchronized void remove(long h) {
            delete(h);
        }

        private int indexOf(long h) {
            int i = (int) h & mask;
            while (table[i] != 0) {
                if (table[i] == h) {
                    return i;
                }
                i = (i + 1) & mask;
            }
            return -1;
        }

        private void delete(long h) {
            int i = indexOf(h);
            if (i < 0) {
                return;
            }
            // Backward-shift: move later members of the probe run into the hole so lookups never stop early.
            int hole = i;
            int j = (i + 1) & mask;
            while (table[j] != 0) {
                int home = (int) table[j] & mask;
                boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
                if (movable) {
                    table[hole] = table[j];
                    hole = j;
                }
                j = (j + 1) & mask;
            }
            table[hole] = 0;
        }
    }
}
