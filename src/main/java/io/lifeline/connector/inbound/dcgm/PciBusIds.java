package io.lifeline.connector.inbound.dcgm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which GPU sits at which PCI address of a node, learned from the {@code pci_bus_id} label dcgm-exporter puts on
 * every series ({@code 00000000:3B:00.0}), so that a kernel-log line naming only the address
 * ({@code NVRM: Xid (PCI:0000:3b:00): 79, ...}) can be put on its GPU. Addresses are compared as domain, bus and
 * device numbers, whatever their spelling (the driver writes a 4-digit domain and no function; dcgm-exporter an
 * 8-digit domain and the function). The GPU is also found by its index on the node, for reports that name a GPU by
 * its index alone (NVSentinel's). Bounded like {@link LastXidMemory}: least recently seen forgotten first.
 * Thread-safe.
 */
public final class PciBusIds {

    /** A GPU: its UUID and index on the node. */
    public record Gpu(String uuid, int index) {}

    private final Map<String, Gpu> byAddress;

    PciBusIds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        long entries = 2L * capacity; // each GPU under its address and under its index
        this.byAddress = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Gpu> eldest) {
                return size() > entries;
            }
        };
    }

    /** Remembers that {@code pciBusId} of {@code node} is this GPU; an unreadable address is ignored. */
    void learn(String node, String pciBusId, String uuid, int index) {
        String key = normalize(pciBusId);
        if (key == null) {
            return;
        }
        Gpu gpu = new Gpu(uuid, index);
        synchronized (this) {
            Gpu known = byAddress.get(node + '\u0000' + key);
            if (!gpu.equals(known)) {
                byAddress.put(node + '\u0000' + key, gpu);
            }
            byAddress.put(node + "\u0000#" + index, gpu);
        }
    }

    /** The GPU with index {@code index} on {@code node}, or null when no dcgm series has named it with its address. */
    public Gpu atIndex(String node, int index) {
        synchronized (this) {
            return byAddress.get(node + "\u0000#" + index);
        }
    }

    /** The GPU at {@code pciBusId} of {@code node}, or null when no dcgm series has named that address yet. */
    public Gpu find(String node, String pciBusId) {
        String key = normalize(pciBusId);
        if (key == null) {
            return null;
        }
        synchronized (this) {
            return byAddress.get(node + '\u0000' + key);
        }
    }

    synchronized int size() {
        return byAddress.size();
    }

    /**
     * {@code domain:bus:device} in lower-case hex without leading zeros ({@code 0:3b:0}), from
     * {@code [domain:]bus:device[.function]}; null when it is not a PCI address.
     */
    static String normalize(String address) {
        if (address == null) {
            return null;
        }
        String a = address.trim();
        int dot = a.lastIndexOf('.');
        if (dot > a.lastIndexOf(':')) {
            a = a.substring(0, dot);
        }
        String[] parts = a.split(":", -1);
        if (parts.length < 2 || parts.length > 3) {
            return null;
        }
        StringBuilder sb = new StringBuilder(16);
        if (parts.length == 2) {
            sb.append('0');
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 8) {
                return null;
            }
            long v;
            try {
                v = Long.parseLong(p, 16);
            } catch (NumberFormatException e) {
                return null;
            }
            if (sb.length() > 0) {
                sb.append(':');
            }
            sb.append(Long.toHexString(v).toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }
}
