package io.lifeline.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The application with small model and metric limits, so that a test reaches them with a few hundred events and the
 * jobs it floods the model with stay out of the other tests' application.
 */
public class SmallModelProfile implements QuarkusTestProfile {

    public static final int MAX_JOBS = 300;
    public static final int MAX_JOBS_PER_NAMESPACE = 120;
    public static final int MAX_NODES = 40;
    public static final int MAX_JOB_SERIES = 50;
    public static final int MAX_JOB_SERIES_PER_NAMESPACE = 20;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "lifeline.model.limits.max-jobs",
                Integer.toString(MAX_JOBS),
                "lifeline.model.limits.max-jobs-per-namespace",
                Integer.toString(MAX_JOBS_PER_NAMESPACE),
                "lifeline.model.limits.max-nodes",
                Integer.toString(MAX_NODES),
                "lifeline.metrics.max-job-series",
                Integer.toString(MAX_JOB_SERIES),
                "lifeline.metrics.max-job-series-per-namespace",
                Integer.toString(MAX_JOB_SERIES_PER_NAMESPACE));
    }
}
