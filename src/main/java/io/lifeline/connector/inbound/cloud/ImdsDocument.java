package io.lifeline.connector.inbound.cloud;

import java.util.Locale;

/** The EC2 instance metadata (IMDS) documents a node agent reports, by their metadata path. */
public enum ImdsDocument {
    /** {@code spot/instance-action}: {@code {"action": "terminate", "time": "2020-04-24T17:11:44Z"}}. */
    SPOT_INSTANCE_ACTION("spot/instance-action"),
    /** {@code events/recommendations/rebalance}: {@code {"noticeTime": "2020-10-16T19:18:24Z"}}. */
    REBALANCE_RECOMMENDATION("events/recommendations/rebalance"),
    /** {@code events/maintenance/scheduled}: an array of {@code {NotBefore, Code, EventId, NotAfter, State, ...}}. */
    MAINTENANCE_SCHEDULED("events/maintenance/scheduled"),
    /**
     * {@code spot/termination-time}: the time alone as plain text ({@code 2015-01-05T18:02:00Z}), kept by AWS for
     * backward compatibility beside {@code spot/instance-action}; any value that is not a time means no termination.
     */
    SPOT_TERMINATION_TIME("spot/termination-time"),
    /**
     * {@code autoscaling/target-lifecycle-state}: the Auto Scaling lifecycle state the instance is moving to, as plain
     * text ({@code InService}, {@code Terminated}, {@code Warmed:Terminated}, {@code Detached}, ...).
     */
    AUTOSCALING_TARGET_LIFECYCLE_STATE("autoscaling/target-lifecycle-state");

    private final String path;

    ImdsDocument(String path) {
        this.path = path;
    }

    /** The path under {@code /latest/meta-data/}. */
    public String path() {
        return path;
    }

    /** Finds a document by its path (with or without {@code /latest/meta-data/}); {@code null} when unknown. */
    public static ImdsDocument fromPath(String path) {
        if (path == null) {
            return null;
        }
        String p = path.trim();
        if (p.startsWith("/latest/meta-data/")) {
            p = p.substring("/latest/meta-data/".length());
        }
        for (ImdsDocument d : values()) {
            if (d.path.equals(p)) {
                return d;
            }
        }
        return null;
    }

    /** The IMDS document for a path or short name; null (rejected by the translator) when unknown. */
    public static ImdsDocument named(String document) {
        String d = document == null ? "" : document.trim().toLowerCase(Locale.ROOT);
        switch (d) {
            case "spot-instance-action", "instance-action":
                return SPOT_INSTANCE_ACTION;
            case "rebalance", "rebalance-recommendation":
                return REBALANCE_RECOMMENDATION;
            case "maintenance", "scheduled-maintenance":
                return MAINTENANCE_SCHEDULED;
            case "termination-time", "spot-termination-time":
                return SPOT_TERMINATION_TIME;
            case "target-lifecycle-state":
                return AUTOSCALING_TARGET_LIFECYCLE_STATE;
            default:
                return fromPath(d.startsWith("latest/") ? "/" + d : d);
        }
    }
}
