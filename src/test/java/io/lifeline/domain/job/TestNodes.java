package io.lifeline.domain.job;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeInfo;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A node directory filled by the test. */
public final class TestNodes implements NodeDirectory {

    private final Map<String, NodeInfo> nodes = new HashMap<>();

    public TestNodes add(String name, String pool, CapacityType capacity, int gpus) {
        nodes.put(name, new NodeInfo(name, pool, capacity, "zone-a", "p4d.24xlarge", gpus));
        return this;
    }

    /** Adds nodes {@code prefix1..prefixN}. */
    public TestNodes addRange(String prefix, int count, String pool, CapacityType capacity, int gpus) {
        for (int i = 1; i <= count; i++) {
            add(prefix + i, pool, capacity, gpus);
        }
        return this;
    }

    /** Forgets a node (it was terminated): its pool no longer offers its capacity type. */
    public TestNodes remove(String name) {
        nodes.remove(name);
        return this;
    }

    @Override
    public NodeInfo find(String node) {
        return nodes.get(node);
    }

    @Override
    public Set<CapacityType> capacityTypesIn(String pool) {
        Set<CapacityType> out = EnumSet.noneOf(CapacityType.class);
        for (NodeInfo n : nodes.values()) {
            if (pool.equals(n.pool())) {
                out.add(n.capacityType());
            }
        }
        return out;
    }
}
