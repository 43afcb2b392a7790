package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reading fields of custom resources held as {@link GenericKubernetesResource} (plain maps and lists). */
final class Generic {

    /** One entry of {@code status.conditions}. */
    record Condition(String type, String status, String reason, String message, String lastTransitionTime) {
        boolean isTrue() {
            return "True".equals(status);
        }
    }

    private Generic() {}

    static Object at(GenericKubernetesResource r, Object... path) {
        Object v = r.getAdditionalProperties();
        for (Object p : path) {
            if (p instanceof String key && v instanceof Map<?, ?> m) {
                v = m.get(key);
            } else if (p instanceof Integer i && v instanceof List<?> l) {
                v = i < l.size() ? l.get(i) : null;
            } else {
                return null;
            }
            if (v == null) {
                return null;
            }
        }
        return v;
    }

    static String string(GenericKubernetesResource r, Object... path) {
        Object v = at(r, path);
        return v == null || v instanceof Map || v instanceof List ? null : v.toString();
    }

    static Integer integer(GenericKubernetesResource r, Object... path) {
        return integer(at(r, path));
    }

    static Integer integer(Object v) {
        if (v instanceof Number n) {
            return n.intValue();
        }
        if (v instanceof String s) {
            try {
                return Integer.valueOf(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static boolean bool(GenericKubernetesResource r, Object... path) {
        Object v = at(r, path);
        return v instanceof Boolean b ? b : v instanceof String s && Boolean.parseBoolean(s.trim());
    }

    static Map<?, ?> map(GenericKubernetesResource r, Object... path) {
        Object v = at(r, path);
        return v instanceof Map<?, ?> m ? m : Map.of();
    }

    static List<?> list(GenericKubernetesResource r, Object... path) {
        Object v = at(r, path);
        return v instanceof List<?> l ? l : List.of();
    }

    static List<Condition> conditions(GenericKubernetesResource r) {
        List<Condition> out = new ArrayList<>();
        for (Object o : list(r, "status", "conditions")) {
            if (o instanceof Map<?, ?> m) {
                out.add(new Condition(
                        str(m.get("type")),
                        str(m.get("status")),
                        str(m.get("reason")),
                        str(m.get("message")),
                        str(m.get("lastTransitionTime"))));
            }
        }
        return out;
    }

    static Condition condition(GenericKubernetesResource r, String type) {
        for (Condition c : conditions(r)) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }

    /** GPUs asked for by the containers of a pod template ({@code nvidia.com/gpu} or {@code amd.com/gpu} limits). */
    static int gpus(Object podTemplate) {
        if (!(podTemplate instanceof Map<?, ?> template)
                || !(template.get("spec") instanceof Map<?, ?> spec)
                || !(spec.get("containers") instanceof List<?> containers)) {
            return 0;
        }
        int n = 0;
        for (Object c : containers) {
            if (c instanceof Map<?, ?> container
                    && container.get("resources") instanceof Map<?, ?> res
                    && res.get("limits") instanceof Map<?, ?> limits) {
                Integer g = integer(limits.get("nvidia.com/gpu"));
                if (g == null) {
                    g = integer(limits.get("amd.com/gpu"));
                }
                n += g == null ? 0 : Math.max(0, g);
            }
        }
        return Math.min(1024, n);
    }

    static String str(Object o) {
        return o == null || o instanceof Map || o instanceof List ? null : o.toString();
    }
}
