package io.lifeline.domain.fleet;

import java.util.Arrays;
import java.util.List;

/**
 * Which slot of a {@link FleetSnapshot} holds which node, by name: an immutable open-addressing table built from the
 * fleet's slots. It changes only when a node joins or leaves, so a snapshot of a fleet whose members did not change
 * shares its predecessor's, and taking a snapshot costs no hashing per node.
 */
final class NodeSlots {

    static final NodeSlots EMPTY = new NodeSlots(new String[1], new int[1]);

    private final String[] names;
    private final int[] slots;
    private final int mask;

    private NodeSlots(String[] names, int[] slots) {
        this.names = names;
        this.slots = slots;
        this.mask = names.length - 1;
    }

    /** The table of {@code bySlot} (null for a free slot). */
    static NodeSlots of(List<NodeState> bySlot) {
        int capacity = Integer.highestOneBit(Math.max(1, bySlot.size()) * 2 - 1) << 1;
        String[] names = new String[capacity];
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        int mask = capacity - 1;
        for (int s = 0; s < bySlot.size(); s++) {
            NodeState n = bySlot.get(s);
            if (n == null) {
                continue;
            }
            int i = spread(n.name.hashCode()) & mask;
            while (names[i] != null) {
                i = (i + 1) & mask;
            }
            names[i] = n.name;
            slots[i] = s;
        }
        return new NodeSlots(names, slots);
    }

    /** The node's slot, or -1. */
    int slot(String name) {
        int i = spread(name.hashCode()) & mask;
        while (names[i] != null) {
            if (names[i].equals(name)) {
                return slots[i];
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
