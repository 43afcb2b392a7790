package io.lifeline.domain.job;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeInfo;
import java.util.HashMap;
import java.util.Map;

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

    @Override
    public NodeInfo find(String node) {
        return nodes.get(node);
    }
}
