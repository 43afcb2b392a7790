package io.lifeline.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The application as the quick start runs it: the built-in demo fleet on (the test profile turns it off), sped up so
 * that jobs checkpoint, get interrupted and recover within a test's few seconds. Tests sharing this profile share one
 * application start.
 */
public class DemoFleetProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("lifeline.demo.enabled", "true", "lifeline.demo.speed", "30");
    }
}
