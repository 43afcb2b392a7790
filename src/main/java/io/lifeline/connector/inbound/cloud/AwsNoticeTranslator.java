package io.lifeline.connector.inbound.cloud;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.connector.LifecycleAction;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NoticeKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * AWS interruption notices, from both channels: Amazon EventBridge events (through SQS or a webhook) and the
 * EC2 instance metadata documents a node agent reads and posts.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>input</th><th>event</th><th>deadline</th></tr>
 *   <tr><td>EventBridge {@code EC2 Spot Instance Interruption Warning}</td><td>notice spot_reclaim</td>
 *       <td>event time + 2 min (AWS issues the warning two minutes before the action; the event carries no
 *       deadline of its own)</td></tr>
 *   <tr><td>EventBridge {@code EC2 Instance Rebalance Recommendation}</td><td>notice rebalance</td><td>none</td></tr>
 *   <tr><td>EventBridge {@code AWS Health Event}, service EC2, category {@code scheduledChange}</td>
 *       <td>notice maintenance per affected instance</td><td>{@code detail.startTime}; window end
 *       {@code detail.endTime}</td></tr>
 *   <tr><td>EventBridge {@code EC2 Instance-terminate Lifecycle Action} (an Auto Scaling group's termination hook
 *       holds the instance in {@code Terminating:Wait})</td><td>notice maintenance</td><td>none (the hook's heartbeat
 *       timeout is not in the event: the event time plus the configured heartbeat timeout, when one is configured); see
 *       {@link #lifecycleActionOf} for completing the action after the drain. The same action delivered by Auto Scaling
 *       straight to SQS (no {@code detail-type}; {@code LifecycleTransition}, {@code EC2InstanceId} and {@code Time}
 *       at the top) is read the same way; a {@code autoscaling:TEST_NOTIFICATION} is nothing</td></tr>
 *   <tr><td>EventBridge {@code EC2 Capacity Reservation Instance Interruption Warning} (also spelled
 *       {@code EC2 Interruptible Capacity Reservation Instance Interruption Warning})</td><td>notice preempt</td>
 *       <td>{@code detail.instance-termination-time}, else event time + 2 min</td></tr>
 *   <tr><td>EventBridge {@code Capacity Block Reservation Expiration Warning} (40 min before a Capacity Block
 *       ends)</td><td>refused, {@code reservation_without_instances}: it names the reservation, not its
 *       instances</td><td>-</td></tr>
 *   <tr><td>EventBridge {@code EC2 Instance State-change Notification}, state stopping or shutting-down</td>
 *       <td>notice preempt (the instance is going down now)</td><td>event time</td></tr>
 *   <tr><td>EventBridge {@code EC2 Instance State-change Notification}, state stopped or terminated</td>
 *       <td>node.terminated (other states: nothing)</td><td>-</td></tr>
 *   <tr><td>IMDS {@code spot/instance-action}</td><td>notice spot_reclaim</td><td>{@code time}</td></tr>
 *   <tr><td>IMDS {@code events/recommendations/rebalance}</td><td>notice rebalance</td><td>none</td></tr>
 *   <tr><td>IMDS {@code events/maintenance/scheduled}, state active (an array, or one event alone)</td>
 *       <td>notice maintenance per event</td><td>{@code NotBefore}; window end {@code NotAfter}</td></tr>
 *   <tr><td>IMDS {@code spot/termination-time} (the time alone, the older form of {@code spot/instance-action})</td>
 *       <td>notice spot_reclaim</td><td>the time; a value that is not a time is nothing</td></tr>
 *   <tr><td>IMDS {@code autoscaling/target-lifecycle-state} {@code Terminated} or {@code Warmed:Terminated}</td>
 *       <td>notice maintenance (one per instance)</td><td>none; other states are nothing</td></tr>
 * </table>
 *
 * Ids and source follow {@link CloudNotices}: the same reclaim seen on both channels is one event. An instance
 * the {@link NodeResolver} does not know is rejected with reason {@code unknown_instance}. Thread-safe.
 */
public final class AwsNoticeTranslator {

    public static final String UNSUPPORTED_DETAIL_TYPE = "unsupported_detail_type";
    public static final String UNSUPPORTED_HEALTH_EVENT = "unsupported_health_event";
    public static final String UNKNOWN_IMDS_DOCUMENT = "unknown_imds_document";
    public static final String UNSUPPORTED_LIFECYCLE_TRANSITION = "unsupported_lifecycle_transition";
    public static final String RESERVATION_WITHOUT_INSTANCES = "reservation_without_instances";

    static final String LIFECYCLE_TERMINATE = "EC2 Instance-terminate Lifecycle Action";

    /** How long before the action AWS issues a spot interruption warning. */
    public static final Duration SPOT_WARNING_LEAD = Duration.ofMinutes(2);

    private static final Set<String> GOING_DOWN_STATES = Set.of("stopping", "shutting-down");
    private static final Set<String> GONE_STATES = Set.of("stopped", "terminated");

    static final String TEST_NOTIFICATION = "autoscaling:TEST_NOTIFICATION";
    private static final String TERMINATING = "autoscaling:EC2_INSTANCE_TERMINATING";
    private static final Set<String> LEAVING_TARGET_STATES = Set.of("terminated", "warmed:terminated");

    private final NodeResolver nodes;
    private final Duration lifecycleHeartbeat;
    private final TranslatorStats stats = new TranslatorStats("aws");

    public AwsNoticeTranslator(NodeResolver nodes) {
        this(nodes, null);
    }

    /**
     * @param nodes               which node an instance is
     * @param lifecycleHeartbeat  the termination hooks' heartbeat timeout, which the lifecycle events do not carry: a
     *                            lifecycle notice is due this long after its event (null: no deadline)
     */
    public AwsNoticeTranslator(NodeResolver nodes, Duration lifecycleHeartbeat) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.lifecycleHeartbeat =
                lifecycleHeartbeat == null || lifecycleHeartbeat.isZero() || lifecycleHeartbeat.isNegative()
                        ? null
                        : lifecycleHeartbeat;
    }

    public TranslatorStats stats() {
        return stats;
    }

    /** Translates one EventBridge event (the JSON object EventBridge delivers, as in an SQS message body). */
    public Translation fromEventBridge(byte[] json) {
        return stats.record(eventBridge(json));
    }

    /**
     * Translates an IMDS document posted by the agent on instance {@code instanceId}.
     *
     * @param instanceId  the EC2 instance id the agent runs on (from IMDS {@code instance-id})
     * @param document    which document
     * @param body        the document as IMDS returned it
     * @param receivedAt  when the agent read it; the event time (a rebalance uses its own {@code noticeTime})
     */
    public Translation fromImds(String instanceId, ImdsDocument document, byte[] body, Instant receivedAt) {
        return stats.record(imds(instanceId, document, body, receivedAt));
    }

    private Translation eventBridge(byte[] json) {
        JsonNode root = CloudNotices.readJson(json);
        if (root == null || !root.isObject()) {
            return CloudNotices.malformed(json);
        }
        String detailType = CloudNotices.text(root, "detail-type");
        if (detailType == null) {
            detailType = CloudNotices.text(root, "detail_type"); // as the Capacity Block examples spell it
        }
        if (detailType == null && (root.has("LifecycleTransition") || root.has("Event"))) {
            return autoScalingNotification(root);
        }
        String timeText = CloudNotices.text(root, "time");
        if (detailType == null || timeText == null) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "an EventBridge event needs detail-type and time");
        }
        Instant time = CloudNotices.rfc3339(timeText);
        if (time == null) {
            return Translation.rejected(CloudNotices.INVALID_TIME, "time: not RFC 3339: " + timeText);
        }
        JsonNode detail = root.path("detail");
        switch (detailType) {
            case "EC2 Spot Instance Interruption Warning":
                return single(
                        CloudNotices.text(detail, "instance-id"),
                        NoticeKind.SPOT_RECLAIM,
                        time.plus(SPOT_WARNING_LEAD),
                        time,
                        time);
            case "EC2 Instance Rebalance Recommendation":
                return single(CloudNotices.text(detail, "instance-id"), NoticeKind.REBALANCE, null, time, time);
            case "AWS Health Event":
                return health(root, detail, time);
            case "EC2 Instance State-change Notification":
                return stateChange(detail, time);
            case LIFECYCLE_TERMINATE:
                return lifecycle(detail, time);
            case "EC2 Capacity Reservation Instance Interruption Warning",
                    "EC2 Interruptible Capacity Reservation Instance Interruption Warning":
                return reservationInterruption(detail, time);
            case "Capacity Block Reservation Expiration Warning":
                return Translation.rejected(
                        RESERVATION_WITHOUT_INSTANCES,
                        "the Capacity Block expiration warning names "
                                + "reservation " + CloudNotices.text(detail, "capacity-reservation-id")
                                + ", not its instances; "
                                + "each instance's own notices (state changes, node taints) are taken");
            default:
                return Translation.rejected(
                        UNSUPPORTED_DETAIL_TYPE, "detail-type '" + detailType + "' is not an interruption");
        }
    }

    private Translation single(String instance, NoticeKind kind, Instant deadline, Instant noticeTime, Instant time) {
        if (instance == null) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "detail.instance-id is missing");
        }
        String node = nodes.nodeFor(instance);
        if (node == null) {
            return unknown(instance);
        }
        return Translation.of(
                List.of(CloudNotices.notice(ProviderId.AWS, instance, node, kind, deadline, noticeTime, time)));
    }

    private Translation health(JsonNode root, JsonNode detail, Instant time) {
        String service = CloudNotices.text(detail, "service");
        String category = CloudNotices.text(detail, "eventTypeCategory");
        if (!"EC2".equals(service) || !"scheduledChange".equals(category)) {
            return Translation.rejected(
                    UNSUPPORTED_HEALTH_EVENT,
                    "only EC2 scheduledChange health events are interruptions, got " + service + "/" + category);
        }
        String start = CloudNotices.text(detail, "startTime");
        Instant deadline = start == null ? null : CloudNotices.rfc1123(start);
        if (start != null && deadline == null) {
            deadline = CloudNotices.rfc3339(start);
        }
        if (start != null && deadline == null) {
            return Translation.rejected(CloudNotices.INVALID_TIME, "detail.startTime: unreadable: " + start);
        }
        Instant windowEnd = windowEnd(deadline, readHealthTime(CloudNotices.text(detail, "endTime")));
        Set<String> instances = new LinkedHashSet<>();
        for (JsonNode entity : detail.path("affectedEntities")) {
            String v = CloudNotices.text(entity, "entityValue");
            if (v != null) {
                instances.add(v);
            }
        }
        if (instances.isEmpty()) {
            for (JsonNode r : root.path("resources")) {
                if (r.isTextual()) {
                    instances.add(r.textValue());
                }
            }
        }
        if (instances.isEmpty()) {
            return Translation.rejected(
                    CloudNotices.MISSING_FIELD, "no affectedEntities or resources name an instance");
        }
        return many(instances, NoticeKind.MAINTENANCE, deadline, windowEnd, time, time);
    }

    /** An AWS Health time: RFC 1123 as EventBridge delivers it, or RFC 3339; null when absent or unreadable. */
    private static Instant readHealthTime(String text) {
        if (text == null) {
            return null;
        }
        Instant t = CloudNotices.rfc1123(text);
        return t != null ? t : CloudNotices.rfc3339(text);
    }

    /** A window's end, kept only when it is not before the window's start (an end alone means nothing here). */
    static Instant windowEnd(Instant start, Instant end) {
        return start == null || end == null || end.isBefore(start) ? null : end;
    }

    private Translation stateChange(JsonNode detail, Instant time) {
        String instance = CloudNotices.text(detail, "instance-id");
        String state = CloudNotices.text(detail, "state");
        if (instance == null || state == null) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "detail.instance-id and detail.state are required");
        }
        String s = state.toLowerCase(Locale.ROOT);
        if (GOING_DOWN_STATES.contains(s)) {
            return single(instance, NoticeKind.PREEMPT, time, time, time);
        }
        if (!GONE_STATES.contains(s)) {
            return Translation.empty();
        }
        String node = nodes.nodeFor(instance);
        if (node == null) {
            return unknown(instance);
        }
        return Translation.of(
                List.of(CloudNotices.terminated(ProviderId.AWS, instance, node, "ec2 instance " + s, time)));
    }

    private Translation lifecycle(JsonNode detail, Instant time) {
        String transition = CloudNotices.text(detail, "LifecycleTransition");
        if (TEST_NOTIFICATION.equals(transition) || TEST_NOTIFICATION.equals(CloudNotices.text(detail, "Event"))) {
            return Translation.empty(); // sent once when a hook is created; no instance is leaving
        }
        if (!TERMINATING.equals(transition)) {
            return Translation.rejected(
                    UNSUPPORTED_LIFECYCLE_TRANSITION, "only " + TERMINATING + " takes a node away, got " + transition);
        }
        String instance = CloudNotices.text(detail, "EC2InstanceId");
        if (instance == null) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "EC2InstanceId is missing");
        }
        return single(
                instance,
                NoticeKind.MAINTENANCE,
                lifecycleHeartbeat == null ? null : time.plus(lifecycleHeartbeat),
                time,
                time);
    }

    /**
     * A lifecycle notification Auto Scaling sent straight to an SQS queue or SNS topic (not through EventBridge): the
     * detail's fields at the top, with {@code Time} for the event time.
     */
    private Translation autoScalingNotification(JsonNode root) {
        if (TEST_NOTIFICATION.equals(CloudNotices.text(root, "Event"))
                || TEST_NOTIFICATION.equals(CloudNotices.text(root, "LifecycleTransition"))) {
            return Translation.empty();
        }
        String timeText = CloudNotices.text(root, "Time");
        if (timeText == null) {
            return Translation.rejected(
                    CloudNotices.MISSING_FIELD, "an Auto Scaling lifecycle notification needs Time");
        }
        Instant time = CloudNotices.rfc3339(timeText);
        if (time == null) {
            return Translation.rejected(CloudNotices.INVALID_TIME, "Time: not RFC 3339: " + timeText);
        }
        return lifecycle(root, time);
    }

    private Translation reservationInterruption(JsonNode detail, Instant time) {
        String at = CloudNotices.text(detail, "instance-termination-time");
        Instant deadline = at == null ? time.plus(SPOT_WARNING_LEAD) : CloudNotices.rfc3339(at);
        if (deadline == null) {
            return Translation.rejected(
                    CloudNotices.INVALID_TIME, "detail.instance-termination-time: not RFC 3339: " + at);
        }
        return single(CloudNotices.text(detail, "instance-id"), NoticeKind.PREEMPT, deadline, time, time);
    }

    /**
     * The Auto Scaling lifecycle action an EventBridge event holds open (an {@value #LIFECYCLE_TERMINATE} with its
     * token), for completing it once the node is drained; empty for any other event.
     */
    public Optional<LifecycleAction> lifecycleActionOf(byte[] json) {
        JsonNode root = CloudNotices.readJson(json);
        if (root == null || !LIFECYCLE_TERMINATE.equals(CloudNotices.text(root, "detail-type"))) {
            return Optional.empty(); // a notification sent straight to SQS names no region: the hook's timeout ends it
        }
        JsonNode d = root.path("detail");
        String group = CloudNotices.text(d, "AutoScalingGroupName");
        String hook = CloudNotices.text(d, "LifecycleHookName");
        String token = CloudNotices.text(d, "LifecycleActionToken");
        String instance = CloudNotices.text(d, "EC2InstanceId");
        String region = CloudNotices.text(root, "region");
        if (group == null || hook == null || token == null || instance == null || region == null) {
            return Optional.empty();
        }
        return Optional.of(new LifecycleAction(group, hook, token, instance, region));
    }

    private Translation imds(String instanceId, ImdsDocument document, byte[] body, Instant receivedAt) {
        Objects.requireNonNull(receivedAt, "receivedAt");
        if (document == null) {
            return Translation.rejected(UNKNOWN_IMDS_DOCUMENT, "not a known IMDS document");
        }
        if (instanceId == null || instanceId.isBlank()) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "the agent must say which instance it runs on");
        }
        if (document == ImdsDocument.SPOT_TERMINATION_TIME) {
            return terminationTime(instanceId, body, receivedAt);
        }
        if (document == ImdsDocument.AUTOSCALING_TARGET_LIFECYCLE_STATE) {
            return targetLifecycleState(instanceId, body, receivedAt);
        }
        JsonNode root = CloudNotices.readJson(body);
        if (root == null) {
            return CloudNotices.malformed(body);
        }
        switch (document) {
            case SPOT_INSTANCE_ACTION: {
                String t = CloudNotices.text(root, "time");
                Instant deadline = t == null ? null : CloudNotices.rfc3339(t);
                if (deadline == null) {
                    return Translation.rejected(
                            t == null ? CloudNotices.MISSING_FIELD : CloudNotices.INVALID_TIME,
                            "spot/instance-action: time is missing or not RFC 3339");
                }
                return single(instanceId, NoticeKind.SPOT_RECLAIM, deadline, receivedAt, receivedAt);
            }
            case REBALANCE_RECOMMENDATION: {
                String t = CloudNotices.text(root, "noticeTime");
                Instant noticeTime = t == null ? null : CloudNotices.rfc3339(t);
                if (noticeTime == null) {
                    return Translation.rejected(
                            t == null ? CloudNotices.MISSING_FIELD : CloudNotices.INVALID_TIME,
                            "events/recommendations/rebalance: noticeTime is missing or not RFC 3339");
                }
                return single(instanceId, NoticeKind.REBALANCE, null, noticeTime, noticeTime);
            }
            default:
                return maintenance(instanceId, root, receivedAt);
        }
    }

    /** The plain-text time of {@code spot/termination-time}; anything else there means no termination is planned. */
    private Translation terminationTime(String instanceId, byte[] body, Instant receivedAt) {
        String text = body == null ? "" : new String(body, java.nio.charset.StandardCharsets.UTF_8).trim();
        Instant at = text.length() > 64 ? null : CloudNotices.rfc3339(text);
        if (at == null) {
            return Translation.empty();
        }
        return single(instanceId, NoticeKind.SPOT_RECLAIM, at, receivedAt, receivedAt);
    }

    /**
     * {@code autoscaling/target-lifecycle-state}: {@code Terminated} (or {@code Warmed:Terminated}) means the group is
     * taking the instance away. An instance is terminated once, so the notice's id is the instance's alone and the
     * agent's repeated reads of it are one event.
     */
    private Translation targetLifecycleState(String instanceId, byte[] body, Instant receivedAt) {
        String state = body == null ? "" : new String(body, java.nio.charset.StandardCharsets.UTF_8).trim();
        if (state.length() > 64 || !LEAVING_TARGET_STATES.contains(state.toLowerCase(Locale.ROOT))) {
            return Translation.empty();
        }
        String node = nodes.nodeFor(instanceId);
        if (node == null) {
            return unknown(instanceId);
        }
        return Translation.of(List.of(CloudNotices.noticeWithId(
                ProviderId.AWS,
                instanceId,
                node,
                NoticeKind.MAINTENANCE,
                "target-lifecycle-state/terminated",
                lifecycleHeartbeat == null ? null : receivedAt.plus(lifecycleHeartbeat),
                receivedAt)));
    }

    private Translation maintenance(String instanceId, JsonNode root, Instant receivedAt) {
        if (root.isObject()) {
            root = CloudNotices.arrayOf(root); // one event alone, as some IMDS mocks answer
        }
        if (!root.isArray()) {
            return Translation.rejected(
                    CloudNotices.MISSING_FIELD, "events/maintenance/scheduled must be a JSON array");
        }
        String node = nodes.nodeFor(instanceId);
        if (node == null) {
            return unknown(instanceId);
        }
        List<Event> events = new ArrayList<>();
        List<Translation.Rejection> rejections = new ArrayList<>();
        for (JsonNode e : root) {
            String state = CloudNotices.text(e, "State");
            if (state != null && !"active".equalsIgnoreCase(state)) {
                continue; // canceled or completed
            }
            String notBefore = CloudNotices.text(e, "NotBefore");
            Instant deadline = notBefore == null ? null : CloudNotices.imdsMaintenance(notBefore);
            if (deadline == null) {
                rejections.add(new Translation.Rejection(
                        CloudNotices.INVALID_TIME,
                        "NotBefore of " + CloudNotices.text(e, "EventId") + ": " + notBefore));
                continue;
            }
            String notAfter = CloudNotices.text(e, "NotAfter");
            Instant end = windowEnd(deadline, notAfter == null ? null : CloudNotices.imdsMaintenance(notAfter));
            events.add(CloudNotices.notice(
                    ProviderId.AWS, instanceId, node, NoticeKind.MAINTENANCE, deadline, end, receivedAt, receivedAt));
        }
        return new Translation(events, rejections);
    }

    private Translation many(
            Set<String> instances,
            NoticeKind kind,
            Instant deadline,
            Instant windowEnd,
            Instant noticeTime,
            Instant time) {
        List<Event> events = new ArrayList<>();
        List<Translation.Rejection> rejections = new ArrayList<>();
        for (String instance : instances) {
            String node = nodes.nodeFor(instance);
            if (node == null) {
                rejections.add(unknown(instance).rejections().get(0));
            } else {
                events.add(CloudNotices.notice(
                        ProviderId.AWS, instance, node, kind, deadline, windowEnd, noticeTime, time));
            }
        }
        return new Translation(events, rejections);
    }

    private static Translation unknown(String instance) {
        return Translation.rejected(CloudNotices.UNKNOWN_INSTANCE, "instance " + instance + " is not a known node");
    }
}
