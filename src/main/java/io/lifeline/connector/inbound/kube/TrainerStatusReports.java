package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A TrainJob's {@code status.trainerStatus} (Kubeflow Trainer v2.2 and later, behind its {@code TrainJobStatus} feature
 * gate) as a {@code trainer.status} report: {@code progressPercentage} (0-100), {@code estimatedRemainingSeconds},
 * {@code metrics} (name/value pairs, values as strings) and {@code lastUpdatedTime}, which the API requires whenever
 * the status is there. Trainer has no step field: a step is read only from a metric that names one ({@code step},
 * {@code global_step}, {@code current_step}, {@code currentStep}), the planned steps likewise, the loss from
 * {@code loss}.
 */
final class TrainerStatusReports {

    static final Set<String> STEP = Set.of("step", "global_step", "current_step", "currentstep");
    static final Set<String> TOTAL_STEPS = Set.of("max_steps", "total_steps", "totalsteps");
    private static final int MAX_TEXT = 64;

    private TrainerStatusReports() {}

    /** The report, or null when the TrainJob has none (or one without a readable {@code lastUpdatedTime}). */
    static TrainerData.StatusReport of(GenericKubernetesResource job) {
        Map<?, ?> s = Generic.map(job, "status", "trainerStatus");
        Instant at = KubeContext.time(Generic.str(s.get("lastUpdatedTime")), null);
        if (at == null) {
            return null;
        }
        Integer percent = Generic.integer(s.get("progressPercentage"));
        Integer remaining = Generic.integer(s.get("estimatedRemainingSeconds"));
        List<TrainerData.Metric> metrics = new ArrayList<>();
        Long step = null;
        Long total = null;
        Double loss = null;
        Object list = s.get("metrics");
        if (list instanceof List<?> l) {
            for (Object o : l) {
                if (metrics.size() >= TrainerData.StatusReport.MAX_METRICS) {
                    break;
                }
                if (!(o instanceof Map<?, ?> m)
                        || Generic.str(m.get("name")) == null
                        || Generic.str(m.get("value")) == null) {
                    continue;
                }
                String name = cut(Generic.str(m.get("name")));
                String value = cut(Generic.str(m.get("value")));
                metrics.add(new TrainerData.Metric(name, value));
                String key = name.toLowerCase(Locale.ROOT);
                if (STEP.contains(key)) {
                    step = whole(value);
                } else if (TOTAL_STEPS.contains(key)) {
                    total = whole(value);
                } else if ("loss".equals(key)) {
                    loss = number(value);
                }
            }
        }
        return new TrainerData.StatusReport(
                at,
                percent == null || percent < 0 || percent > 100 ? null : percent,
                remaining == null || remaining < 0 ? null : Long.valueOf(remaining),
                step,
                total,
                loss,
                metrics);
    }

    private static String cut(String s) {
        return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s;
    }

    /** A non-negative whole number, also when written as a float ({@code "1200.0"}); else null. */
    static Long whole(String v) {
        Double d = number(v);
        return d == null || d < 0 || d != Math.rint(d) || d > 1e15 ? null : Long.valueOf(d.longValue());
    }

    static Double number(String v) {
        try {
            double d = Double.parseDouble(v.trim());
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
