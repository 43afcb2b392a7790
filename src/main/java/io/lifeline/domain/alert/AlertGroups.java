package io.lifeline.domain.alert;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns an evaluation into one notification per group (rule, namespace) that has something to tell. A group
 * without a notifiable change sends nothing: dedupe happens here, and receivers only hear about changes.
 */
public final class AlertGroups {

    private AlertGroups() {}

    /** The notifications an evaluation calls for, by rule and namespace. */
    public static List<GroupNotification> notifications(Evaluation ev) {
        Map<String, List<AlertChange>> changed = new TreeMap<>();
        for (AlertChange c : ev.notifiable()) {
            changed.computeIfAbsent(key(c.alert()), k -> new ArrayList<>()).add(c);
        }
        List<GroupNotification> out = new ArrayList<>();
        for (Map.Entry<String, List<AlertChange>> e : changed.entrySet()) {
            Alert first = e.getValue().get(0).alert();
            Map<String, Alert> alerts = new LinkedHashMap<>();
            for (Alert a : ev.alerts()) {
                if (a.state() == AlertState.FIRING && !a.silenced() && key(a).equals(e.getKey())) {
                    alerts.put(a.fingerprint(), a);
                }
            }
            for (AlertChange c : e.getValue()) {
                alerts.putIfAbsent(c.alert().fingerprint(), c.alert());
            }
            List<Alert> list = new ArrayList<>(alerts.values());
            list.sort(Comparator.comparing(Alert::fingerprint));
            boolean firing = list.stream().anyMatch(a -> a.state() == AlertState.FIRING);
            Map<String, String> groupLabels = new TreeMap<>();
            groupLabels.put("alertname", first.rule().alertName());
            if (first.namespace() != null) {
                groupLabels.put("namespace", first.namespace());
            }
            String groupKey = groupKey(groupLabels);
            out.add(new GroupNotification(
                    groupKey,
                    first.rule(),
                    first.namespace(),
                    firing ? "firing" : "resolved",
                    groupLabels,
                    list,
                    idempotencyKey(groupKey, e.getValue(), ev)));
        }
        return out;
    }

    private static String key(Alert a) {
        return a.rule().alertName() + "\u0000" + Objects.toString(a.namespace(), "");
    }

    /** Alertmanager's form of a group key (no parent route): {@code {}:{alertname="X", namespace="y"}}. */
    static String groupKey(Map<String, String> groupLabels) {
        StringBuilder b = new StringBuilder("{}:{");
        String sep = "";
        for (Map.Entry<String, String> e : new TreeMap<>(groupLabels).entrySet()) {
            b.append(sep)
                    .append(e.getKey())
                    .append("=\"")
                    .append(e.getValue().replace("\"", "\\\""))
                    .append('"');
            sep = ", ";
        }
        return b.append('}').toString();
    }

    /** A hash of the group and of what changed (which alerts, to which state, since when). */
    private static String idempotencyKey(String groupKey, List<AlertChange> changes, Evaluation ev) {
        List<String> parts = new ArrayList<>();
        for (AlertChange c : changes) {
            Alert a = c.alert();
            String since =
                    a.state() == AlertState.RESOLVED ? String.valueOf(a.resolvedAt()) : String.valueOf(a.firingSince());
            parts.add(a.fingerprint() + ":" + a.state().wire() + ":" + since
                    + (c.unsilenced() ? ":unsilenced@" + ev.at() : ""));
        }
        parts.sort(null);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(groupKey.getBytes(StandardCharsets.UTF_8));
            for (String p : parts) {
                sha.update((byte) '\n');
                sha.update(p.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
